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

  private List<CapturedPunctuator> live() {
    return context.scheduledPunctuators().stream().filter(p -> !p.cancelled()).toList();
  }

  @Test
  void schedulesNothingWhileNothingIsKept() {
    ExpirySchedule schedule = new ExpirySchedule(context, checks::add);

    schedule.atOrBefore(Long.MAX_VALUE);

    assertThat(context.scheduledPunctuators()).isEmpty();
    assertThat(schedule.dueMs()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void runsOnceAtTheEarliestExpiryItWasTold() {
    context.setCurrentSystemTimeMs(1_000);
    ExpirySchedule schedule = new ExpirySchedule(context, checks::add);

    schedule.atOrBefore(61_000);
    schedule.atOrBefore(91_000); // later: the earlier one stands
    schedule.atOrBefore(11_000); // earlier: replaces it

    assertThat(live()).hasSize(1);
    CapturedPunctuator due = live().get(0);
    assertThat(due.getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
    assertThat(due.getInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(schedule.dueMs()).isEqualTo(11_000);

    due.getPunctuator().punctuate(11_000);

    assertThat(checks).containsExactly(11_000L);
    assertThat(due.cancelled()).as("a run does not repeat").isTrue();
    assertThat(live()).isEmpty();
    assertThat(schedule.dueMs()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void anExpiryAlreadyPastRunsAtOnce() {
    context.setCurrentSystemTimeMs(50_000);
    ExpirySchedule schedule = new ExpirySchedule(context, checks::add);

    schedule.atOrBefore(10_000);

    assertThat(live())
        .singleElement()
        .extracting(CapturedPunctuator::getInterval)
        .isEqualTo(Duration.ofMillis(1));
  }

  @Test
  void theCheckNamesTheNextExpiry() {
    context.setCurrentSystemTimeMs(0);
    List<ExpirySchedule> self = new ArrayList<>();
    ExpirySchedule schedule =
        new ExpirySchedule(
            context,
            now -> {
              checks.add(now);
              self.get(0).atOrBefore(now + 5_000);
            });
    self.add(schedule);
    schedule.atOrBefore(2_000);

    context.setCurrentSystemTimeMs(2_000);
    live().get(0).getPunctuator().punctuate(2_000);

    assertThat(checks).containsExactly(2_000L);
    assertThat(live())
        .singleElement()
        .extracting(CapturedPunctuator::getInterval)
        .isEqualTo(Duration.ofMillis(5_000));
    assertThat(schedule.dueMs()).isEqualTo(7_000);
  }
}
