package dev.floe.projections;

import java.time.Duration;
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
 * <p>A daemon thread ticks every {@link #TICK_MS}; a gap between ticks (seen by the ticker or by a
 * reader, whichever runs first after the thaw) longer than the freeze threshold is a freeze. The
 * group expels a member when it has heard no heartbeat for the session timeout, and heartbeats go
 * every quarter of it, so a gap of {@code g} leaves the group at most {@code g} plus a quarter
 * session without one: the threshold, half the session and at most {@link #FROZEN_MS}, notices
 * every gap that can have cost this instance its partitions, with a margin.
 */
public final class FreezeGuard {
  static final long TICK_MS = 200;

  /** The freeze threshold for sessions of 3 s and longer. */
  static final long FROZEN_MS = 1_500;

  /** How long stores are distrusted after a thaw: the group answers a heartbeat in far less. */
  static final long DISTRUST_MS = 3_000;

  private final Clock clock;
  private final long frozenNanos;
  private long lastTick;
  private long thawedAt;
  private boolean thawed;

  /** Nanoseconds, monotonic; a field so tests can move time. */
  interface Clock {
    long nanos();
  }

  FreezeGuard(Clock clock, Duration session) {
    this.clock = clock;
    this.frozenNanos = TimeUnit.MILLISECONDS.toNanos(frozenMillis(session));
    this.lastTick = clock.nanos();
  }

  /** The freeze threshold for a group session of {@code session}. */
  static long frozenMillis(Duration session) {
    return Math.min(FROZEN_MS, session.toMillis() / 2);
  }

  /**
   * A guard whose ticker runs until the JVM exits.
   *
   * @param session the processor's group session timeout
   */
  public static FreezeGuard start(Duration session) {
    FreezeGuard guard = new FreezeGuard(System::nanoTime, session);
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
    if (now - lastTick > frozenNanos) {
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
