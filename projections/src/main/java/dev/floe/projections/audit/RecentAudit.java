package dev.floe.projections.audit;

import dev.floe.events.AuditRecord;
import dev.floe.events.DataAccessRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The newest records of {@code floe.audit} (and of {@code floe.data-access}) that match, for the
 * management API: each partition's last {@link #WINDOW} records are searched, newest first. One
 * consumer, shared by the instance's requests one at a time.
 */
public final class RecentAudit implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RecentAudit.class);

  /** How many of each partition's newest records a search looks at. */
  public static final int WINDOW = 5_000;

  private final KafkaConsumer<String, byte[]> consumer;
  private final String topic;
  private final String dataAccessTopic;

  /**
   * @param topic {@code floe.audit}
   * @param dataAccessTopic {@code floe.data-access}
   */
  public RecentAudit(String bootstrapServers, String topic, String dataAccessTopic) {
    this.topic = topic;
    this.dataAccessTopic = dataAccessTopic;
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
    consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
  }

  /** The newest {@code limit} records that {@code matches}, newest first. */
  public List<AuditRecord> newest(Predicate<AuditRecord> matches, int limit) {
    return newest(
        topic,
        AuditRecord::fromBytes,
        matches,
        Comparator.comparing(AuditRecord::time).reversed(),
        limit);
  }

  /**
   * The newest {@code limit} counts of signed and refused S3 requests ({@code floe.data-access})
   * that {@code matches}, newest minute first.
   */
  public List<DataAccessRecord> newestDataAccess(Predicate<DataAccessRecord> matches, int limit) {
    return newest(
        dataAccessTopic,
        DataAccessRecord::fromBytes,
        matches,
        Comparator.comparing(DataAccessRecord::minute).reversed(),
        limit);
  }

  private synchronized <T> List<T> newest(
      String topic,
      Function<byte[], T> decode,
      Predicate<T> matches,
      Comparator<T> newestFirst,
      int limit) {
    List<TopicPartition> partitions =
        consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(topic, p.partition()))
            .toList();
    Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions);
    Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
    consumer.assign(partitions);
    for (TopicPartition tp : partitions) {
      consumer.seek(tp, Math.max(begin.get(tp), end.get(tp) - WINDOW));
    }
    List<T> found = new ArrayList<>();
    int idle = 0;
    while (idle < 10 && !atEnd(partitions, end)) {
      int read = 0;
      for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(50))) {
        read++;
        try {
          T decoded = decode.apply(record.value());
          if (matches.test(decoded)) {
            found.add(decoded);
          }
        } catch (RuntimeException e) {
          LOG.debug("Passing over an unreadable record of {}: {}", topic, e.toString());
        }
      }
      idle = read == 0 ? idle + 1 : 0;
    }
    consumer.unsubscribe();
    found.sort(newestFirst);
    return found.size() > limit ? List.copyOf(found.subList(0, limit)) : List.copyOf(found);
  }

  private boolean atEnd(List<TopicPartition> partitions, Map<TopicPartition, Long> end) {
    for (TopicPartition tp : partitions) {
      if (consumer.position(tp) < end.get(tp)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public synchronized void close() {
    consumer.close(Duration.ofSeconds(2));
  }
}
