package dev.floe.processor.kafka;

import java.time.Duration;
import java.util.function.LongUnaryOperator;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * When a task next looks for what has expired (kept entities whose recovery period is over, keyed
 * requests' records past their lifetime): once, at the earliest expiry it knows of, and never while
 * it keeps nothing that expires.
 *
 * <p>Kafka Streams commits a task's transaction after every wall-clock punctuation, whatever the
 * punctuator did, so a check every second cost every idle instance a Kafka transaction a second
 * (its offsets, its markers, the coordinator's log). The task instead tells this schedule of every
 * expiry it stores ({@link #atOrBefore}); the check, when it runs, removes what is due and returns
 * the next expiry, which is scheduled in turn.
 */
final class ExpirySchedule {
  private final ProcessorContext<?, ?> context;
  private final long spacingMs;
  private final LongUnaryOperator check;
  private Cancellable scheduled;
  private long dueMs = Long.MAX_VALUE;

  /**
   * @param spacing the least time from one run of the check to the next
   * @param check runs with the wall-clock time; returns the earliest expiry it leaves behind
   *     ({@code Long.MAX_VALUE}: none)
   */
  ExpirySchedule(ProcessorContext<?, ?> context, Duration spacing, LongUnaryOperator check) {
    this.context = context;
    this.spacingMs = spacing.toMillis();
    this.check = check;
  }

  /** Makes the check run no later than {@code expiresAtMs} ({@code Long.MAX_VALUE}: no change). */
  void atOrBefore(long expiresAtMs) {
    if (expiresAtMs >= dueMs) {
      return;
    }
    cancel();
    dueMs = expiresAtMs;
    long delayMs = Math.max(1, expiresAtMs - context.currentSystemTimeMs());
    scheduled =
        context.schedule(Duration.ofMillis(delayMs), PunctuationType.WALL_CLOCK_TIME, this::due);
  }

  private void due(long nowMs) {
    cancel(); // one run per due time: the check names the next
    long next = check.applyAsLong(nowMs);
    if (next != Long.MAX_VALUE) {
      atOrBefore(Math.max(next, nowMs + spacingMs));
    }
  }

  private void cancel() {
    if (scheduled != null) {
      scheduled.cancel();
      scheduled = null;
    }
    dueMs = Long.MAX_VALUE;
  }
}
