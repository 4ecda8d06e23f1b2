package dev.floe.server.cli;

import dev.floe.events.Topics;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code floe events tail} and {@code floe audit tail}: print {@code floe.events} (the log of
 * record) or {@code floe.audit} (request outcomes) as records arrive, one line each.
 *
 * <p>It reads without a consumer group: it assigns itself every partition and commits nothing, so
 * any number of tails can run beside the catalog without a rebalance. It reads {@code
 * read_committed}: an event shows once the processor's transaction that wrote it has committed, the
 * same view the projections have.
 */
final class TailCommand {
  private static final Logger LOG = LoggerFactory.getLogger(TailCommand.class);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(15);

  /** Renders one record's value, or nothing when a filter leaves it out. */
  interface Lines {
    Optional<String> line(byte[] value);
  }

  private TailCommand() {}

  /**
   * Prints the records of {@code options}' topic until its limit, its idle timeout, the end of the
   * log ({@code --to-end}), or an interrupt.
   *
   * @return 0 when done
   * @throws CliFailure when Kafka, the server or the topic cannot be reached
   */
  static int run(TailOptions options, PrintStream out) {
    if (options.url() != null) {
      return HttpEventsTail.run(options, out);
    }
    Topics topics = new Topics(options.topicPrefix());
    String topic =
        switch (options.what()) {
          case "events" -> topics.events();
          case "data-access" -> topics.dataAccess();
          default -> topics.audit();
        };
    Lines lines =
        switch (options.what()) {
          case "events" -> new EventLines(options);
          case "data-access" -> new DataAccessLines(options);
          default -> new AuditLines(options);
        };
    String bootstrap = bootstrapServers(options);
    KafkaAddress.requireReachable(bootstrap);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            consumerProps(bootstrap, options.what()),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      Map<TopicPartition, Long> end = assign(consumer, topic, options.fromBeginning());
      follow(consumer, lines, options, options.toEnd() ? end : null, out);
      return 0;
    } catch (InterruptException e) {
      return 0; // "until interrupted": the interrupt flag stays set for the caller
    } catch (TimeoutException e) {
      throw new CliFailure(
          "Kafka at " + bootstrap + " did not answer within " + METADATA_TIMEOUT.toSeconds() + " s",
          "is it running?",
          e);
    }
  }

  /**
   * {@code --kafka}, else the embedded broker whose ports {@code floe serve} keeps in its data dir.
   */
  static String bootstrapServers(TailOptions options) {
    if (options.kafka() != null) {
      return options.kafka();
    }
    return EmbeddedBroker.bootstrap(options.dataDir());
  }

  private static Properties consumerProps(String bootstrap, String what) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "floe-" + what + "-tail");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
    // Only reached when retention deletes records under a slow reader: go on from what is left.
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    return props;
  }

  /** Assigns every partition of the topic; returns their end offsets as of now. */
  private static Map<TopicPartition, Long> assign(
      KafkaConsumer<byte[], byte[]> consumer, String topic, boolean fromBeginning) {
    List<PartitionInfo> infos = consumer.partitionsFor(topic, METADATA_TIMEOUT);
    if (infos.isEmpty()) {
      throw new CliFailure(
          "topic " + topic + " does not exist",
          "has `floe serve` started on this Kafka with this --topic-prefix?");
    }
    List<TopicPartition> partitions =
        infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    consumer.assign(partitions);
    if (fromBeginning) {
      consumer.seekToBeginning(partitions);
    } else {
      consumer.seekToEnd(partitions);
    }
    // Resolve the positions now, so a record written after the tail started is never skipped.
    partitions.forEach(p -> consumer.position(p, METADATA_TIMEOUT));
    // read_committed: the last stable offsets, so an open transaction's records are not awaited.
    return consumer.endOffsets(partitions, METADATA_TIMEOUT);
  }

  /**
   * Prints what arrives until the limit, the idle timeout, or (when {@code end} is given) every
   * partition's position has reached its end offset.
   */
  private static void follow(
      KafkaConsumer<byte[], byte[]> consumer,
      Lines lines,
      TailOptions options,
      Map<TopicPartition, Long> end,
      PrintStream out) {
    Duration idle = options.idleTimeout();
    Duration poll = idle != null && idle.compareTo(POLL) < 0 ? idle : POLL;
    long printed = 0;
    long lastArrival = System.nanoTime();
    while (true) {
      if (end != null && reached(consumer, end)) {
        return;
      }
      ConsumerRecords<byte[], byte[]> records = consumer.poll(poll);
      if (records.isEmpty()) {
        if (idle != null && System.nanoTime() - lastArrival >= idle.toNanos()) {
          return;
        }
        continue;
      }
      lastArrival = System.nanoTime();
      for (ConsumerRecord<byte[], byte[]> record : inTimeOrder(records)) {
        Optional<String> line = render(lines, record);
        if (line.isPresent()) {
          out.println(line.get());
          out.flush();
          if (++printed >= options.limit()) {
            return;
          }
        }
      }
    }
  }

  private static boolean reached(
      KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
    return end.entrySet().stream()
        .allMatch(e -> consumer.position(e.getKey(), METADATA_TIMEOUT) >= e.getValue());
  }

  /**
   * Kafka orders records only within a partition. Interleave one poll's partitions by record time,
   * so history reads in order (a namespace before its tables), without ever reordering a partition:
   * one entity's events keep their sequence.
   */
  static List<ConsumerRecord<byte[], byte[]>> inTimeOrder(ConsumerRecords<byte[], byte[]> records) {
    List<Deque<ConsumerRecord<byte[], byte[]>>> queues = new ArrayList<>();
    records.partitions().forEach(p -> queues.add(new ArrayDeque<>(records.records(p))));
    queues.removeIf(Deque::isEmpty);
    Comparator<Deque<ConsumerRecord<byte[], byte[]>>> byHeadTime =
        Comparator.comparingLong(q -> q.peekFirst().timestamp());
    List<ConsumerRecord<byte[], byte[]>> merged = new ArrayList<>(records.count());
    while (!queues.isEmpty()) {
      Deque<ConsumerRecord<byte[], byte[]>> next = Collections.min(queues, byHeadTime);
      merged.add(next.pollFirst());
      if (next.isEmpty()) {
        queues.remove(next);
      }
    }
    return merged;
  }

  /** A record this version cannot read (a newer event type, say) is skipped, not fatal. */
  private static Optional<String> render(Lines lines, ConsumerRecord<byte[], byte[]> record) {
    if (record.value() == null) {
      return Optional.empty();
    }
    try {
      return lines.line(record.value());
    } catch (RuntimeException e) {
      LOG.warn(
          "Skipping {}-{}@{}: {}",
          record.topic(),
          record.partition(),
          record.offset(),
          e.getMessage());
      return Optional.empty();
    }
  }
}
