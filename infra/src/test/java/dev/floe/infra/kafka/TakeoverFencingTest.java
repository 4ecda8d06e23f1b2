package dev.floe.infra.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class TakeoverFencingTest {
  private static final String APP = "floe.processor";

  private static TransactionDescription open(TransactionState state, TopicPartition... partitions) {
    return new TransactionDescription(
        1, state, 7L, 3, 10_000, OptionalLong.of(1_000), Set.of(partitions));
  }

  private static TopicPartition changelog(String store, int partition) {
    return new TopicPartition(APP + "-" + store + "-changelog", partition);
  }

  @Test
  void aTransactionOpenOnAChangelogOfATaskTakenOverIsFenced() {
    Map<String, TransactionDescription> open =
        Map.of(
            APP + "-zombie-1",
            open(
                TransactionState.ONGOING,
                changelog("floe-tables", 2),
                new TopicPartition("floe.replies", 0)));
    assertThat(TakeoverFencing.select(open, APP, Set.of(2))).containsExactly(APP + "-zombie-1");
  }

  @Test
  void transactionsOnOtherTasksOrOtherTopicsOrNoLongerOngoingAreLeftAlone() {
    Map<String, TransactionDescription> open =
        Map.of(
            APP + "-peer-1",
            open(TransactionState.ONGOING, changelog("floe-tables", 1)),
            APP + "-peer-2",
            open(TransactionState.ONGOING, new TopicPartition("floe.events", 2)),
            APP + "-peer-3",
            open(TransactionState.PREPARE_COMMIT, changelog("floe-tables", 2)),
            APP + "-peer-4",
            open(TransactionState.ONGOING, new TopicPartition("other-app-x-changelog", 2)));
    assertThat(TakeoverFencing.select(open, APP, Set.of(2))).isEmpty();
  }
}
