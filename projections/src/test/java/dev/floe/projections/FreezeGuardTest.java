package dev.floe.projections;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FreezeGuardTest {
  private long now = 1_000_000_000L;
  private final FreezeGuard guard = new FreezeGuard(() -> now, Duration.ofSeconds(6));

  private void advance(long millis) {
    now += TimeUnit.MILLISECONDS.toNanos(millis);
  }

  /** Time passing with the ticker running. */
  private void tickFor(long millis) {
    for (long passed = 0; passed < millis; passed += FreezeGuard.TICK_MS) {
      advance(FreezeGuard.TICK_MS);
      guard.tick();
    }
  }

  @Test
  void aProcessThatKeepsTickingIsTrusted() {
    tickFor(20_000);
    assertThat(guard.trusted()).isTrue();
  }

  @Test
  void aReaderThatRunsFirstAfterAFreezeIsRefusedUntilTheDistrustEnds() {
    advance(10_000);
    assertThat(guard.trusted()).as("the first read after 10 s frozen").isFalse();
    tickFor(FreezeGuard.DISTRUST_MS - 2 * FreezeGuard.TICK_MS);
    assertThat(guard.trusted()).as("still within the distrust").isFalse();
    tickFor(2 * FreezeGuard.TICK_MS);
    advance(1);
    assertThat(guard.trusted()).as("after the distrust").isTrue();
  }

  @Test
  void theTickerNoticesAFreezeBeforeAnyReader() {
    advance(FreezeGuard.FROZEN_MS + 1);
    guard.tick();
    assertThat(guard.trusted()).isFalse();
  }

  @Test
  void aGapBelowTheFreezeThresholdIsNoFreeze() {
    advance(FreezeGuard.FROZEN_MS - 1);
    assertThat(guard.trusted()).isTrue();
  }

  @Test
  void aShortSessionLowersTheThresholdBelowWhatTheGroupWouldExpel() {
    assertThat(FreezeGuard.frozenMillis(Duration.ofSeconds(6))).isEqualTo(FreezeGuard.FROZEN_MS);
    assertThat(FreezeGuard.frozenMillis(Duration.ofSeconds(2))).isEqualTo(1_000);
    FreezeGuard shortSession = new FreezeGuard(() -> now, Duration.ofSeconds(2));
    advance(1_100);
    assertThat(shortSession.trusted()).as("1.1 s frozen with a 2 s session").isFalse();
  }
}
