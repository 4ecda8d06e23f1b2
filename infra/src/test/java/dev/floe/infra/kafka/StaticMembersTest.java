package dev.floe.infra.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StaticMembersTest {
  private static final String DEAD = "floe-1111";

  @Test
  void everyThreadOfTheInstanceIsRemoved() {
    assertThat(StaticMembers.threadsOf(List.of(DEAD + "-2", "floe-2222-1", DEAD + "-1"), DEAD))
        .containsExactly(DEAD + "-1", DEAD + "-2");
  }

  @Test
  void anInstanceWhoseIdMerelyStartsTheSameIsLeftAlone() {
    assertThat(StaticMembers.threadsOf(List.of(DEAD + "1-1", DEAD + "-x", DEAD + "-"), DEAD))
        .isEmpty();
  }
}
