package dev.floe.projections.replay;

import dev.floe.events.event.EventEnvelope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads {@code floe.events} from the beginning up to the end it had when the read started ({@code
 * read_committed}: only committed changes), optionally stopping at a time or at an offset.
 * Per-entity order is the partition order; events of different entities need no order.
 */
public final class EventLogReader {
  /**
   * Where to stop: events after this time, or at/after this offset of each partition, are left out.
   */
  public record Until(Instant time, Long offset) {
    public static final Until END = new Until(null, null);

    public static Until parse(String value) {
      if (value == null || value.isEmpty()) {
        return END;
      }
      if (value.chars().allMatch(Character::isDigit)) {
        return new Until(null, Long.parseLong(value));
      }
      return new Until(Instant.parse(value), null);
    }

    boolean includes(ConsumerRecord<String, byte[]> record, EventEnvelope envelope) {
      if (offset != null && record.offset() >= offset) {
        return false;
      }
      return time == null || !Instant.parse(envelope.time()).isAfter(time);
    }
  }

  /** Progress: events read so far of the total to read. */
  public interface Progress {
    void update(long done, long total);
  }

  private EventLogReader() {}

  /**
   * Reads the log and applies it to {@code state} in causal order (see {@link CausalOrder}).
   *
   * @return the number of events applied
   */
  public static long replay(
      String bootstrapServers, String topic, Until until, ReplayState state, Progress progress) {
    Map<Integer, List<dev.floe.events.event.CatalogEvent>> byPartition = new java.util.TreeMap<>();
    long read =
        readPartitions(
            bootstrapServers,
            topic,
            until,
            (partition, envelope) ->
                byPartition
                    .computeIfAbsent(partition, p -> new java.util.ArrayList<>())
                    .add(envelope.data()),
            progress);
    CausalOrder.apply(byPartition.values(), state);
    return read;
  }

  /** Every event in log order per partition (no order across partitions). */
  public static long read(
      String bootstrapServers,
      String topic,
      Until until,
      Consumer<EventEnvelope> sink,
      Progress progress) {
    return readPartitions(
        bootstrapServers, topic, until, (partition, envelope) -> sink.accept(envelope), progress);
  }

  private static long readPartitions(
      String bootstrapServers,
      String topic,
      Until until,
      java.util.function.BiConsumer<Integer, EventEnvelope> sink,
      Progress progress) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
    // A catch-up read of a whole log: large fetches, fewer round trips.
    props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 << 20);
    props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 << 20);
    props.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, 1 << 20);
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions));
      Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions);
      long total =
          end.entrySet().stream().mapToLong(e -> e.getValue() - begin.get(e.getKey())).sum();
      long done = 0;
      long applied = 0;
      end.entrySet().removeIf(e -> e.getValue() <= begin.get(e.getKey()));
      while (!end.isEmpty()) {
        List<ConsumerRecord<String, byte[]>> batch = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          Long stop = end.get(new TopicPartition(record.topic(), record.partition()));
          if (stop != null && record.offset() < stop) {
            batch.add(record);
          }
        }
        // Decoding an envelope (JSON, Iceberg's metadata and updates) is most of a replay's work
        // and needs nothing from other events: decode a poll's records in parallel, then hand
        // them on in log order.
        List<EventEnvelope> envelopes =
            batch.parallelStream().map(record -> EventEnvelope.fromBytes(record.value())).toList();
        for (int i = 0; i < batch.size(); i++) {
          ConsumerRecord<String, byte[]> record = batch.get(i);
          TopicPartition partition = new TopicPartition(record.topic(), record.partition());
          if (!end.containsKey(partition)) {
            continue;
          }
          done++;
          EventEnvelope envelope = envelopes.get(i);
          if (until.includes(record, envelope)) {
            sink.accept(record.partition(), envelope);
            applied++;
          } else {
            // A prefix of each partition, never a gap: an entity's later events need its earlier
            // ones.
            end.remove(partition);
          }
        }
        for (TopicPartition partition : List.copyOf(end.keySet())) {
          if (consumer.position(partition) >= end.get(partition)) {
            end.remove(partition);
          }
        }
        progress.update(done, total);
      }
      progress.update(total, total);
      return applied;
    }
  }
}
