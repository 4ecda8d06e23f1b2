package dev.floe.projections.replay;

import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventEnvelope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
  /** Polls read ahead of the one being applied. */
  private static final int APPLY_AHEAD = 2;

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
   * Reads the log and applies it to {@code state} in causal order (see {@link CausalOrder}). One
   * thread polls and decodes while another applies what was read before: on a replay of the whole
   * log neither waits for the other, and neither holds more than a few polls' events.
   *
   * @return the number of events applied
   */
  public static long replay(
      String bootstrapServers, String topic, Until until, ReplayState state, Progress progress) {
    CausalOrder order = new CausalOrder(state);
    ExecutorService applier =
        Executors.newSingleThreadExecutor(
            task -> {
              Thread thread = new Thread(task, "floe-replay-apply");
              thread.setDaemon(true);
              return thread;
            });
    Deque<Future<?>> applying = new ArrayDeque<>();
    try {
      long read =
          readPartitions(
              bootstrapServers,
              topic,
              until,
              batch -> {
                applying.addLast(
                    applier.submit(
                        () -> {
                          batch.forEach(event -> order.offer(event.partition(), event.data()));
                          order.applyReady();
                        }));
                while (applying.size() > APPLY_AHEAD) {
                  await(applying.pollFirst());
                }
              },
              progress);
      while (!applying.isEmpty()) {
        await(applying.pollFirst());
      }
      order.requireAllApplied();
      return read;
    } finally {
      applier.shutdownNow();
    }
  }

  /** Every event in log order per partition (no order across partitions). */
  public static long read(
      String bootstrapServers,
      String topic,
      Until until,
      Consumer<EventEnvelope> sink,
      Progress progress) {
    return readPartitions(
        bootstrapServers,
        topic,
        until,
        batch -> batch.forEach(event -> sink.accept(event.envelope())),
        progress);
  }

  /** An event as read, with the partition it was read from. */
  private record PartitionEvent(int partition, EventEnvelope envelope) {
    CatalogEvent data() {
      return envelope.data();
    }
  }

  /** Waits for an apply step, and rethrows what it threw. */
  private static void await(Future<?> step) {
    try {
      step.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while replaying", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private static long readPartitions(
      String bootstrapServers,
      String topic,
      Until until,
      Consumer<List<PartitionEvent>> sink,
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
        List<PartitionEvent> events = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
          ConsumerRecord<String, byte[]> record = batch.get(i);
          TopicPartition partition = new TopicPartition(record.topic(), record.partition());
          if (!end.containsKey(partition)) {
            continue;
          }
          done++;
          EventEnvelope envelope = envelopes.get(i);
          if (until.includes(record, envelope)) {
            events.add(new PartitionEvent(record.partition(), envelope));
            applied++;
          } else {
            // A prefix of each partition, never a gap: an entity's later events need its earlier
            // ones.
            end.remove(partition);
          }
        }
        if (!events.isEmpty()) {
          sink.accept(events);
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
