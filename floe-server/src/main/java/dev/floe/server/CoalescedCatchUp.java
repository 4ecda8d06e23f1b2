package dev.floe.server;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for the access view to catch up, sharing the wait among callers: a caller that arrives
 * while a catch-up runs joins the next one, which starts when the running one ends (the running one
 * may have read the log's end before the caller's change was committed), and every caller that
 * arrives meanwhile joins that same next one. So a burst of syncs costs two catch-ups, not one
 * each.
 */
final class CoalescedCatchUp {
  private static final Logger LOG = LoggerFactory.getLogger(CoalescedCatchUp.class);
  private final BooleanSupplier catchUp;
  private final Executor executor;
  private CompletableFuture<Boolean> running;
  private CompletableFuture<Boolean> next;

  /**
   * @param catchUp blocks until the view has applied everything committed when it was called; false
   *     when it did not within its bound
   * @param executor where the blocking wait runs
   */
  CoalescedCatchUp(BooleanSupplier catchUp, Executor executor) {
    this.catchUp = catchUp;
    this.executor = executor;
  }

  /** Completes with whether the view caught up with everything committed before this call. */
  synchronized CompletableFuture<Boolean> await() {
    if (running == null) {
      running = new CompletableFuture<>();
      start(running);
      return running;
    }
    if (next == null) {
      next = new CompletableFuture<>();
    }
    return next;
  }

  private void start(CompletableFuture<Boolean> round) {
    executor.execute(
        () -> {
          boolean caughtUp;
          try {
            caughtUp = catchUp.getAsBoolean();
          } catch (RuntimeException e) {
            LOG.warn("The access view could not catch up: {}", e.toString());
            caughtUp = false;
          }
          finished(round, caughtUp);
        });
  }

  private void finished(CompletableFuture<Boolean> round, boolean caughtUp) {
    CompletableFuture<Boolean> following;
    synchronized (this) {
      running = next;
      next = null;
      following = running;
    }
    round.complete(caughtUp);
    if (following != null) {
      start(following);
    }
  }
}
