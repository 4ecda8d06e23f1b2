package dev.floe.infra.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TakeoverFencingTest {
  private static final String LIVE = "floe.processor-1111-aaaa";
  private static final String GONE = "floe.processor-2222-bbbb";

  @Test
  void anOpenTransactionOfNoMemberIsAborted() {
    assertThat(
            TakeoverFencing.select(
                List.of(LIVE + "-1", GONE + "-1"), List.of(LIVE + "-StreamThread-1-consumer")))
        .containsExactly(GONE + "-1");
  }

  @Test
  void everyThreadOfAMemberIsLeftAlone() {
    assertThat(
            TakeoverFencing.select(
                List.of(LIVE + "-1", LIVE + "-2"),
                List.of(LIVE + "-StreamThread-2-consumer", LIVE + "-StreamThread-1-consumer")))
        .isEmpty();
  }

  @Test
  void withNoMemberKnownEveryOpenTransactionIsAnOrphan() {
    assertThat(TakeoverFencing.select(List.of(GONE + "-1"), List.of("some-other-client")))
        .containsExactly(GONE + "-1");
  }
}
