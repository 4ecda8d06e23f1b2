package dev.floe.infra.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aborts, when an instance takes over stream tasks, the transactions another instance still holds
 * open on those tasks' changelog partitions.
 *
 * <p>Only a task's owner writes its changelog, and an owner that hands a task over cleanly commits
 * first; so another producer's open transaction on the changelog of a task this instance now owns
 * belongs to an instance that died or froze with it open (a zombie). Kafka would abort it only one
 * transaction timeout after it began, and until then every {@code read_committed} reader of every
 * partition it wrote sees nothing past it: the replies the new owner writes to those partitions
 * among them, so the commits it decides would wait unanswered. Starting a producer with the
 * zombie's transactional id ({@code initTransactions}) makes the coordinator abort the open
 * transaction at once and bump the producer's epoch, so nothing the zombie sends afterwards can
 * commit.
 */
public final class TakeoverFencing {
  private static final Logger LOG = LoggerFactory.getLogger(TakeoverFencing.class);

  private TakeoverFencing() {}

  /**
   * Fences the producers that hold a transaction open on a changelog partition of {@code
   * ownedPartitions}.
   *
   * @param applicationId the Kafka Streams application: its transactional ids and changelog topics
   *     start with it
   * @param ownPrefix this instance's transactional ids start with it; they are never fenced
   * @return the transactional ids fenced
   */
  public static List<String> fence(
      Admin admin,
      String bootstrapServers,
      String applicationId,
      String ownPrefix,
      Set<Integer> ownedPartitions,
      Duration timeout)
      throws ExecutionException, InterruptedException, TimeoutException {
    long ms = timeout.toMillis();
    List<String> ids = new ArrayList<>();
    for (TransactionListing listing :
        admin
            .listTransactions(
                new ListTransactionsOptions().filterStates(Set.of(TransactionState.ONGOING)))
            .all()
            .get(ms, TimeUnit.MILLISECONDS)) {
      String id = listing.transactionalId();
      if (id.startsWith(applicationId + "-") && !id.startsWith(ownPrefix)) {
        ids.add(id);
      }
    }
    LOG.debug("Open transactions of other instances: {}; this one owns {}", ids, ownedPartitions);
    if (ids.isEmpty()) {
      return List.of();
    }
    List<String> zombies =
        select(
            admin.describeTransactions(ids).all().get(ms, TimeUnit.MILLISECONDS),
            applicationId,
            ownedPartitions);
    for (String id : zombies) {
      LOG.warn(
          "Aborting the open transaction of {}: it holds partitions this instance has taken over",
          id);
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(properties(bootstrapServers, id, ms))) {
        producer.initTransactions();
      }
    }
    return zombies;
  }

  /**
   * The transactional ids among {@code open} whose ongoing transaction includes a changelog
   * partition ({@code <application id>-…-changelog}) numbered in {@code ownedPartitions}.
   */
  static List<String> select(
      Map<String, TransactionDescription> open,
      String applicationId,
      Set<Integer> ownedPartitions) {
    List<String> zombies = new ArrayList<>();
    open.forEach(
        (id, description) -> {
          if (description.state() == TransactionState.ONGOING
              && holdsAny(description.topicPartitions(), applicationId, ownedPartitions)) {
            zombies.add(id);
          }
        });
    zombies.sort(null);
    return zombies;
  }

  private static boolean holdsAny(
      Collection<TopicPartition> partitions, String applicationId, Set<Integer> owned) {
    for (TopicPartition partition : partitions) {
      if (partition.topic().startsWith(applicationId + "-")
          && partition.topic().endsWith("-changelog")
          && owned.contains(partition.partition())) {
        return true;
      }
    }
    return false;
  }

  private static Properties properties(String bootstrapServers, String transactionalId, long ms) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) ms);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    return props;
  }
}
