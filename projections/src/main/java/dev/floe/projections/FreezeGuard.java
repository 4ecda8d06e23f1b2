package dev.floe.projections;

import java.util.concurrent.TimeUnit;

/**
 * Notices that this process was frozen (SIGSTOP, a long GC pause, a suspended VM) and distrusts its
 * own stores for a while after it thaws. A frozen instance misses its Kafka group's heartbeats;
 * past the session timeout its partitions move to another instance, which commits on. On thawing,
 * the instance still believes it owns them until its first heartbeat is answered with an error, and
 * would answer reads from stores that miss those commits: a client that got a 200 from the new
 * owner could then load the table without its commit. Writes need no guard (Kafka fences the old
 * owner's transactions); reads of its stores are refused as unavailable until the group has had
 * time to tell it, after which a moved partition's store is no longer its to query.
 *
 * <p>A daemon thread ticks every {@link #TICK_MS}; a gap of more than {@link #FROZEN_MS} between
 * ticks (seen by the ticker or by a reader, whichever runs first after the thaw) is a freeze.
 */
public final class FreezeGuard {
  static final long TICK_MS = 200;
  static final long FROZEN_MS = 1_500;

  /** How long stores are distrusted after a thaw: the group answers a heartbeat in far less. */
  static final long DISTRUST_MS = 3_000;

  private final Clock clock;
  private long lastTick;
  private long thawedAt;
  private boolean thawed;

  /** Nanoseconds, monotonic; a field so tests can move time. */
  interface Clock {
    long nanos();
  }

  FreezeGuard(Clock clock) {
    this.clock = clock;
    this.lastTick = clock.nanos();
  }

  /** A guard whose ticker runs until the JVM exits. */
  public static FreezeGuard start() {
    FreezeGuard guard = new FreezeGuard(System::nanoTime);
    Thread ticker =
        new Thread(
            () -> {
              while (true) {
                try {
                  Thread.sleep(TICK_MS);
                } catch (InterruptedException e) {
                  return;
                }
                guard.tick();
              }
            },
            "floe-freeze-guard");
    ticker.setDaemon(true);
    ticker.start();
    return guard;
  }

  synchronized void tick() {
    long now = clock.nanos();
    if (now - lastTick > TimeUnit.MILLISECONDS.toNanos(FROZEN_MS)) {
      thawed = true;
      thawedAt = now;
    }
    lastTick = now;
  }

  /** Whether this instance may answer from its stores: it was not frozen in the last moments. */
  public synchronized boolean trusted() {
    tick();
    return !thawed || clock.nanos() - thawedAt > TimeUnit.MILLISECONDS.toNanos(DISTRUST_MS);
  }
}
