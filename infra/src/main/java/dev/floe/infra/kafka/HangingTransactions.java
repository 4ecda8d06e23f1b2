package dev.floe.infra.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds and aborts the processor's <em>hanging</em> transactions (KIP-664): a transaction left open
 * in a partition's log that Kafka's transaction coordinator no longer tracks, so nothing will ever
 * write its commit or abort marker.
 *
 * <p>Seen on Kafka 4.3.1 with an embedded broker killed (SIGKILL) together with the processor while
 * one transaction's commit markers were still being written and the stream thread had already
 * written the next transaction's first records (a store changelog and its offsets in {@code
 * __consumer_offsets}). After the restart the coordinator completed the first transaction, had no
 * record of the second, and bumped the producer epoch past it; the second stayed open in both
 * partitions. Its offsets then stay pending in the group coordinator, every committed-offset fetch
 * answers {@code UNSTABLE_OFFSET_COMMIT}, and the stream task never starts ("Timeout of 60000ms
 * expired before the last committed offset for partitions … could be determined", for ever).
 *
 * <p>An open transaction is taken to be hanging only when it belongs to one of the processor's own
 * transactional ids and its producer epoch is below the epoch the coordinator now holds for that
 * producer, with the coordinator not writing markers for it (no {@code PREPARE_*} state). Such a
 * transaction is fenced: no producer can complete it, and the coordinator would have aborted it had
 * it known of it. Aborting it writes the abort marker the coordinator should have written; the
 * broker refuses the marker if the transaction was completed meanwhile (the partition then holds a
 * newer epoch).
 */
public final class HangingTransactions {
  private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);
  private static final Set<TransactionState> NOT_WRITING_MARKERS =
      EnumSet.of(
          TransactionState.EMPTY,
          TransactionState.ONGOING,
          TransactionState.COMPLETE_COMMIT,
          TransactionState.COMPLETE_ABORT);

  private HangingTransactions() {}

  /**
   * Aborts the hanging transactions of the transactional ids that start with {@code
   * transactionalIdPrefix}, in the partitions of {@code __consumer_offsets} and of the topics that
   * {@code topics} accepts.
   *
   * @return the transactions aborted (empty when none hangs)
   */
  public static List<AbortTransactionSpec> abort(
      Admin admin, String transactionalIdPrefix, Predicate<String> topics, Duration timeout)
      throws ExecutionException, InterruptedException, TimeoutException {
    long ms = timeout.toMillis();
    List<String> ids = new ArrayList<>();
    for (TransactionListing listing :
        admin.listTransactions().all().get(ms, TimeUnit.MILLISECONDS)) {
      if (listing.transactionalId().startsWith(transactionalIdPrefix)) {
        ids.add(listing.transactionalId());
      }
    }
    if (ids.isEmpty()) {
      return List.of();
    }
    // The coordinator's view first: a transaction that opens after this read holds the current
    // epoch, which find() leaves alone.
    Collection<TransactionDescription> ours =
        admin.describeTransactions(ids).all().get(ms, TimeUnit.MILLISECONDS).values();
    List<String> names = new ArrayList<>();
    for (String name :
        admin
            .listTopics(new ListTopicsOptions().listInternal(true))
            .names()
            .get(ms, TimeUnit.MILLISECONDS)) {
      if (Topic.GROUP_METADATA_TOPIC_NAME.equals(name) || topics.test(name)) {
        names.add(name);
      }
    }
    List<TopicPartition> partitions = new ArrayList<>();
    for (TopicDescription topic :
        admin.describeTopics(names).allTopicNames().get(ms, TimeUnit.MILLISECONDS).values()) {
      topic
          .partitions()
          .forEach(p -> partitions.add(new TopicPartition(topic.name(), p.partition())));
    }
    Map<TopicPartition, PartitionProducerState> producers =
        admin.describeProducers(partitions).all().get(ms, TimeUnit.MILLISECONDS);
    List<AbortTransactionSpec> hanging = find(ours, producers);
    for (AbortTransactionSpec spec : hanging) {
      LOG.warn(
          "Aborting a hanging transaction that Kafka's transaction coordinator no longer tracks:"
              + " {} (producer {}, epoch {}); it held back every read_committed reader of that"
              + " partition",
          spec.topicPartition(),
          spec.producerId(),
          spec.producerEpoch());
      admin.abortTransaction(spec).all().get(ms, TimeUnit.MILLISECONDS);
    }
    return hanging;
  }

  /** The open transactions in {@code producers} that the coordinator's {@code ours} have fenced. */
  static List<AbortTransactionSpec> find(
      Collection<TransactionDescription> ours,
      Map<TopicPartition, PartitionProducerState> producers) {
    Map<Long, TransactionDescription> byProducer = new HashMap<>();
    for (TransactionDescription description : ours) {
      if (NOT_WRITING_MARKERS.contains(description.state())) {
        byProducer.put(description.producerId(), description);
      }
    }
    List<AbortTransactionSpec> hanging = new ArrayList<>();
    producers.forEach(
        (partition, state) -> {
          for (ProducerState producer : state.activeProducers()) {
            TransactionDescription coordinator = byProducer.get(producer.producerId());
            if (coordinator != null
                && producer.currentTransactionStartOffset().isPresent()
                && producer.producerEpoch() < coordinator.producerEpoch()) {
              hanging.add(
                  new AbortTransactionSpec(
                      partition,
                      producer.producerId(),
                      (short) producer.producerEpoch(),
                      producer.coordinatorEpoch().orElse(0)));
            }
          }
        });
    return hanging;
  }
}
