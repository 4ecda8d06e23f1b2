package dev.floe.server.cli;

import dev.floe.events.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.apache.kafka.common.KafkaException;
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
public final class TailCommand {
  private static final Logger LOG = LoggerFactory.getLogger(TailCommand.class);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(15);

  static final String USAGE =
      """
Usage: floe events tail [--table ns.t] [--namespace ns] [--type floe.table.committed,...]
                        [--from-beginning] [--to-end] [--json] [--limit N] [--timeout-ms T]
                        [--kafka host:port,...] [--data-dir ./floe-data] [--topic-prefix floe.]
       floe events tail --url http://host:8181 [--token T] [--warehouse default]
                        [--table ns.t] [--namespace ns] [--type update-table,...]
                        [--from-beginning] [--to-end] [--json] [--limit N] [--timeout-ms T]
       floe audit tail  [--table ns.t] [--principal p] [--status 409,5xx]
                        [--from-beginning] [--to-end] [--json] [--limit N] [--timeout-ms T]
                        [--kafka host:port,...] [--data-dir ./floe-data] [--topic-prefix floe.]

Prints the catalog's changes (floe.events) or its request outcomes (floe.audit), one line each.

  --table           only this table or namespace, levels joined by '.' (db.sales.orders)
  --namespace       only events about this namespace and the tables directly in it
  --type            only these event types, comma-separated
  --principal       only requests by this principal
  --status          only these HTTP statuses, comma-separated; 4xx or 5xx match a class
  --from-beginning  start at the oldest record kept instead of at the newest
  --to-end          stop at the end of the log as it was at the start (with --from-beginning:
                    print the history and exit)
  --json            print each record's JSON as written instead of a readable line
  --limit           stop after printing N records
  --timeout-ms      stop once no record has arrived for T ms (default: follow until interrupted)
  --kafka           the Kafka cluster (default: the embedded broker of --data-dir)
  --data-dir        the data directory of a `floe serve` on this machine (default ./floe-data)
  --topic-prefix    the prefix of Floe's topic names (default floe.)
  --url             read a Floe server's events endpoint instead of Kafka: what the token's
                    principal may read, as the endpoint's events (--type takes its operation
                    types; --table and --namespace match the object and everything under it)
  --token           the bearer token for --url (default: $FLOE_TOKEN, else
                    <data-dir>/admin.token)
  --warehouse       the warehouse whose events --url reads (default: default)
""";

  /** Renders one record's value, or nothing when a filter leaves it out. */
  interface Lines {
    Optional<String> line(byte[] value);
  }

  private TailCommand() {}

  /**
   * @param what {@code events} or {@code audit}
   * @param args the flags, optionally after the word {@code tail}
   * @return 0 when done, 1 when Kafka or the topic cannot be reached, 2 for bad arguments
   */
  public static int run(String what, String[] args, PrintStream out) {
    if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
      out.print(USAGE);
      return 0;
    }
    TailOptions options;
    try {
      options = TailOptions.parse(what, args);
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      out.print(USAGE);
      return 2;
    }
    if (options.url() != null) {
      return HttpEventsTail.run(options, out);
    }
    Topics topics = new Topics(options.topicPrefix());
    boolean events = "events".equals(what);
    String topic = events ? topics.events() : topics.audit();
    Lines lines = events ? new EventLines(options) : new AuditLines(options);
    String bootstrap = null;
    try {
      bootstrap = bootstrapServers(options);
      try (KafkaConsumer<byte[], byte[]> consumer =
          new KafkaConsumer<>(
              consumerProps(bootstrap, what),
              new ByteArrayDeserializer(),
              new ByteArrayDeserializer())) {
        Map<TopicPartition, Long> end = assign(consumer, topic, options.fromBeginning());
        follow(consumer, lines, options, options.toEnd() ? end : null, out);
      }
      return 0;
    } catch (InterruptException e) {
      return 0; // "until interrupted": the interrupt flag stays set for the caller
    } catch (TimeoutException e) {
      out.println(
          "Kafka at "
              + bootstrap
              + " did not answer within "
              + METADATA_TIMEOUT.toSeconds()
              + " s; is it running?");
      return 1;
    } catch (IOException | IllegalStateException | KafkaException e) {
      out.println(e.getMessage());
      return 1;
    }
  }

  /**
   * {@code --kafka}, else the embedded broker whose ports {@code floe serve} keeps in its data dir.
   */
  static String bootstrapServers(TailOptions options) throws IOException {
    if (options.kafka() != null) {
      return options.kafka();
    }
    Path file = options.dataDir().resolve("kafka-ports.properties");
    if (!Files.exists(file)) {
      throw new IllegalStateException(
          "No --kafka given and no embedded broker in "
              + options.dataDir().toAbsolutePath().normalize()
              + " (no kafka-ports.properties): run this next to `floe serve`, or pass --data-dir or"
              + " --kafka");
    }
    Properties ports = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      ports.load(in);
    }
    String port = ports.getProperty("port");
    if (port == null) {
      throw new IllegalStateException(file + " has no port");
    }
    return "localhost:" + port.trim();
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
      throw new IllegalStateException(
          "Topic "
              + topic
              + " does not exist: has `floe serve` started on this Kafka with this"
              + " --topic-prefix?");
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
