package dev.floe.processor.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.junit.jupiter.api.Test;

class ExpiryScheduleTest {
  private final MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
  private final List<Long> checks = new ArrayList<>();

  /** A schedule whose check records its time and names {@code next} as the next expiry. */
  private ExpirySchedule schedule(Duration spacing, long next) {
    return new ExpirySchedule(
        context,
        spacing,
        now -> {
          checks.add(now);
          return next;
        });
  }

  private List<CapturedPunctuator> live() {
    return context.scheduledPunctuators().stream().filter(p -> !p.cancelled()).toList();
  }

  /** The delay of the one live punctuation. */
  private Duration delay() {
    assertThat(live()).hasSize(1);
    assertThat(live().get(0).getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
    return live().get(0).getInterval();
  }

  private void runAt(long nowMs) {
    context.setCurrentSystemTimeMs(nowMs);
    live().get(0).getPunctuator().punctuate(nowMs);
  }

  @Test
  void schedulesNothingWhileNothingExpires() {
    schedule(Duration.ZERO, Long.MAX_VALUE).atOrBefore(Long.MAX_VALUE);

    assertThat(context.scheduledPunctuators()).isEmpty();
  }

  @Test
  void runsOnceAtTheEarliestExpiryItWasTold() {
    context.setCurrentSystemTimeMs(1_000);
    ExpirySchedule schedule = schedule(Duration.ZERO, Long.MAX_VALUE);

    schedule.atOrBefore(61_000);
    schedule.atOrBefore(91_000); // later: the earlier one stands
    schedule.atOrBefore(11_000); // earlier: replaces it
    assertThat(delay()).isEqualTo(Duration.ofSeconds(10));

    runAt(11_000);

    assertThat(checks).containsExactly(11_000L);
    assertThat(live()).as("nothing left to expire: no further run").isEmpty();
  }

  @Test
  void anExpiryAlreadyPastRunsAtOnce() {
    context.setCurrentSystemTimeMs(50_000);

    schedule(Duration.ZERO, Long.MAX_VALUE).atOrBefore(10_000);

    assertThat(delay()).isEqualTo(Duration.ofMillis(1));
  }

  @Test
  void theNextExpiryTheCheckNamesIsScheduledNoSoonerThanTheSpacing() {
    context.setCurrentSystemTimeMs(0);
    ExpirySchedule soon = schedule(Duration.ofMinutes(1), 7_000);
    soon.atOrBefore(2_000);

    runAt(2_000);

    assertThat(checks).containsExactly(2_000L);
    assertThat(delay()).as("7 s is due, but a minute must pass").isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void theNextExpiryTheCheckNamesIsScheduled() {
    context.setCurrentSystemTimeMs(0);
    ExpirySchedule schedule = schedule(Duration.ZERO, 7_000);
    schedule.atOrBefore(2_000);

    runAt(2_000);

    assertThat(delay()).isEqualTo(Duration.ofSeconds(5));
  }
}
