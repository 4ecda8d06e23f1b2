package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatsTest {
  @Test
  void percentilesAreNearestRankOverTheRecordedLatencies() {
    Stats stats = new Stats();
    for (int ms = 100; ms >= 1; ms--) {
      stats.record(ms * 1_000_000L);
    }
    stats.elapsed(2_000_000_000L);

    assertThat(stats.percentileMillis(0.50)).isEqualTo(50.0);
    assertThat(stats.percentileMillis(0.99)).isEqualTo(99.0);
    assertThat(stats.percentileMillis(1.0)).isEqualTo(100.0);
    assertThat(stats.opsPerSecond()).isEqualTo(50.0);
  }

  @Test
  void anEmptyRunHasNoPercentilesAndCountsItsFailures() {
    Stats stats = new Stats();
    stats.error();
    stats.conflict();
    stats.conflict();

    assertThat(stats.percentileMillis(0.5)).isNaN();
    assertThat(stats.toMap()).containsEntry("errors", 1L).containsEntry("conflicts", 2L);
  }
}
