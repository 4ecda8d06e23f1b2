package dev.floe.infra.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Which open transactions count as hanging. The first case is the state a failed restart left
 * behind (RestCatalogLifecycleIT, read with the Admin client while the stream task could not fetch
 * its committed offsets).
 */
class HangingTransactionsTest {
  private static final TopicPartition OFFSETS = new TopicPartition("__consumer_offsets", 0);
  private static final TopicPartition CHANGELOG =
      new TopicPartition("floe.processor-floe-idempotency-changelog", 3);
  private static final TopicPartition EVENTS = new TopicPartition("floe.events", 2);

  @Test
  void anOpenTransactionBelowTheCoordinatorsEpochIsAbortedWhereverItIsOpen() {
    List<AbortTransactionSpec> hanging =
        HangingTransactions.find(
            List.of(coordinator(TransactionState.EMPTY, 0, 13)),
            Map.of(
                OFFSETS, partition(open(0, 11, 29, 2)),
                CHANGELOG, partition(open(0, 11, 10, 2)),
                EVENTS, partition(closed(0, 11, 2))));

    assertThat(hanging)
        .containsExactlyInAnyOrder(
            new AbortTransactionSpec(OFFSETS, 0, (short) 11, 2),
            new AbortTransactionSpec(CHANGELOG, 0, (short) 11, 2));
  }

  @Test
  void theCurrentEpochsOpenTransactionIsLive() {
    assertThat(findOne(TransactionState.ONGOING, 13, open(0, 13, 40, 2))).isEmpty();
    // Completed in the coordinator's view but not yet here: a transaction that began after the
    // coordinator was read. Left alone.
    assertThat(findOne(TransactionState.COMPLETE_COMMIT, 13, open(0, 13, 40, 2))).isEmpty();
  }

  @Test
  void nothingIsAbortedWhileTheCoordinatorIsWritingMarkers() {
    for (TransactionState writing :
        List.of(
            TransactionState.PREPARE_COMMIT,
            TransactionState.PREPARE_ABORT,
            TransactionState.PREPARE_EPOCH_FENCE)) {
      assertThat(findOne(writing, 13, open(0, 11, 29, 2)))
          .as("coordinator in %s", writing)
          .isEmpty();
    }
  }

  @Test
  void anotherProducersTransactionIsNotOurs() {
    assertThat(findOne(TransactionState.EMPTY, 13, open(7, 1, 29, 0))).isEmpty();
  }

  @Test
  void aMissingCoordinatorEpochIsSentAsZero() {
    assertThat(
            HangingTransactions.find(
                List.of(coordinator(TransactionState.EMPTY, 0, 2)),
                Map.of(
                    EVENTS,
                    partition(
                        new ProducerState(0, 1, -1, 0L, OptionalInt.empty(), OptionalLong.of(5))))))
        .containsExactly(new AbortTransactionSpec(EVENTS, 0, (short) 1, 0));
  }

  /**
   * Producer 0's coordinator in {@code state} at {@code epoch}, one partition of
   * __consumer_offsets.
   */
  private static List<AbortTransactionSpec> findOne(
      TransactionState state, int epoch, ProducerState producer) {
    return HangingTransactions.find(
        List.of(coordinator(state, 0, epoch)), Map.of(OFFSETS, partition(producer)));
  }

  private static TransactionDescription coordinator(
      TransactionState state, long producerId, int epoch) {
    return new TransactionDescription(
        1, state, producerId, epoch, 10_000, OptionalLong.empty(), Set.of());
  }

  private static PartitionProducerState partition(ProducerState... producers) {
    return new PartitionProducerState(List.of(producers));
  }

  private static ProducerState open(
      long producerId, int epoch, long startOffset, int coordinatorEpoch) {
    return new ProducerState(
        producerId, epoch, -1, 0L, OptionalInt.of(coordinatorEpoch), OptionalLong.of(startOffset));
  }

  private static ProducerState closed(long producerId, int epoch, int coordinatorEpoch) {
    return new ProducerState(
        producerId, epoch, -1, 0L, OptionalInt.of(coordinatorEpoch), OptionalLong.empty());
  }
}
