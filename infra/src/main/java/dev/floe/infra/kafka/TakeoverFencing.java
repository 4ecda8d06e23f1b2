package dev.floe.infra.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aborts the transactions left open by instances that are no longer members of the processor's
 * group: an instance that died, or froze past its session, with a transaction open.
 *
 * <p>Kafka would abort such a transaction only one transaction timeout after it began, and until
 * then every {@code read_committed} reader of every partition it wrote sees nothing past it: the
 * replies the new owners write to those partitions among them, so the commits they decide would
 * wait unanswered. A member's transactional ids start with its Kafka Streams client id ({@code
 * <application id>-<process id>-}), which its consumers' client ids carry too; an open transaction
 * whose id matches no member's is a dead or frozen instance's. Starting a producer with that
 * transactional id ({@code initTransactions}) makes the coordinator abort it at once and bump the
 * producer's epoch, so nothing the frozen instance sends afterwards can commit; if it comes back,
 * it rejoins, starts its producer again and goes on. Run once a rebalance has settled, so the
 * group's members are those that took the tasks.
 */
public final class TakeoverFencing {
  private static final Logger LOG = LoggerFactory.getLogger(TakeoverFencing.class);
  private static final String THREAD = "-StreamThread-";

  private TakeoverFencing() {}

  /**
   * Fences the producers of {@code applicationId} whose ongoing transaction belongs to no member of
   * its group.
   *
   * @return the transactional ids fenced
   */
  public static List<String> fence(
      Admin admin, String bootstrapServers, String applicationId, Duration timeout)
      throws ExecutionException, InterruptedException, TimeoutException {
    long ms = timeout.toMillis();
    List<String> open = new ArrayList<>();
    for (TransactionListing listing :
        admin
            .listTransactions(
                new ListTransactionsOptions().filterStates(Set.of(TransactionState.ONGOING)))
            .all()
            .get(ms, TimeUnit.MILLISECONDS)) {
      if (listing.transactionalId().startsWith(applicationId + "-")) {
        open.add(listing.transactionalId());
      }
    }
    if (open.isEmpty()) {
      return List.of();
    }
    List<String> clientIds = new ArrayList<>();
    ConsumerGroupDescription group =
        admin
            .describeConsumerGroups(List.of(applicationId))
            .all()
            .get(ms, TimeUnit.MILLISECONDS)
            .get(applicationId);
    for (MemberDescription member : group.members()) {
      clientIds.add(member.clientId());
    }
    List<String> orphans = select(open, clientIds);
    LOG.debug("Open transactions {}; members {}; to abort {}", open, clientIds, orphans);
    for (String id : orphans) {
      LOG.warn("Aborting the open transaction of {}: no member of the group holds it", id);
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(properties(bootstrapServers, id, ms))) {
        producer.initTransactions();
      }
    }
    return orphans;
  }

  /**
   * The transactional ids among {@code open} that start with no member's Kafka Streams client id (a
   * member's consumer client id is {@code <client id>-StreamThread-<n>-consumer}).
   */
  static List<String> select(Collection<String> open, Collection<String> memberClientIds) {
    List<String> prefixes = new ArrayList<>();
    for (String clientId : memberClientIds) {
      int at = clientId.lastIndexOf(THREAD);
      if (at > 0) {
        prefixes.add(clientId.substring(0, at) + "-");
      }
    }
    List<String> orphans = new ArrayList<>();
    for (String id : open) {
      if (prefixes.stream().noneMatch(id::startsWith)) {
        orphans.add(id);
      }
    }
    orphans.sort(null);
    return orphans;
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
