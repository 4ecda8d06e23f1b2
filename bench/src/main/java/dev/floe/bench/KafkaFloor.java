package dev.floe.bench;

import dev.floe.client.CommandGateway;
import dev.floe.events.CommandReply;
import dev.floe.events.FloeJson;
import dev.floe.events.Topics;
import dev.floe.events.command.CatalogCommand;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.infra.config.FloeConfig;
import dev.floe.infra.kafka.EmbeddedKafkaBroker;
import dev.floe.infra.kafka.TopicProvisioner;
import dev.floe.processor.kafka.GroupCommit;
import dev.floe.processor.kafka.StreamsSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * What Floe's commit path costs with the catalog taken out of it: the same embedded broker, the
 * same exactly-once Kafka Streams settings and group commit, the same {@link CommandGateway}
 * (produce the command, read the reply {@code read_committed}), and a processor that decides
 * nothing and writes no metadata file: per command it puts one state value ({@code --bytes}, a
 * table's pointer), forwards the command as its event and a reply without a document, as a table
 * commit does. Closed-loop clients commit to many tables, as {@code commit-many-tables} does; the
 * figure is the most Floe's design allows on this machine (docs/benchmarks.md).
 *
 * <pre>
 * KafkaFloor [--clients 1,4] [--duration 10] [--warmup 20] [--tables 1000] [--bytes 300]
 *            [--json out.json]
 * </pre>
 *
 * Prints one line per client count; {@code --json} also writes them as {@code kafka-floor-commit-N}
 * figures, which {@link Report} adds to Floe's column.
 */
public final class KafkaFloor {
  private static final String STORE = "floor-tables";

  private KafkaFloor() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = Options.parse(args);
    List<Integer> clients =
        Stream.of(options.getOrDefault("clients", "1,4").split(","))
            .map(String::trim)
            .map(Integer::parseInt)
            .toList();
    int duration = Integer.parseInt(options.getOrDefault("duration", "10"));
    int warmup = Integer.parseInt(options.getOrDefault("warmup", "20"));
    int tables = Integer.parseInt(options.getOrDefault("tables", "1000"));
    String payload = "x".repeat(Integer.parseInt(options.getOrDefault("bytes", "300")));

    Map<String, Object> results = new LinkedHashMap<>();
    Path dir = Files.createTempDirectory("floe-kafka-floor");
    Properties props = new Properties();
    props.setProperty("floe.data-dir", dir.toString());
    FloeConfig config = FloeConfig.fromProperties(props);
    Topics topics = new Topics(config.topicPrefix());
    try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dir.resolve("kafka"), 0)) {
      broker.start();
      String bootstrap = broker.bootstrapServers();
      try (Admin admin =
          Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
        TopicProvisioner.ensureTopics(
            admin, topics, config.partitions(), config.replicationFactor());
      }
      GroupCommit groupCommit = new GroupCommit();
      KafkaStreams streams =
          new KafkaStreams(
              topology(topics, groupCommit, payload),
              StreamsSettings.of(
                  config, bootstrap, "localhost:1", "floor-" + UUID.randomUUID(), groupCommit));
      streams.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (streams.state() != KafkaStreams.State.RUNNING) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("Kafka Streams did not start: " + streams.state());
        }
        Thread.sleep(50);
      }
      try (CommandGateway gateway =
          new CommandGateway(bootstrap, topics, "floor-api", Duration.ofSeconds(30))) {
        for (int count : clients) {
          IntSupplier commit = () -> commit(gateway, tables);
          if (warmup > 0) {
            Load.closedLoop(warmup, count, commit);
          }
          Stats stats = Load.closedLoop(duration, count, commit);
          results.put("kafka-floor-commit-" + count, stats.toMap());
          System.out.printf(
              Locale.ROOT,
              "kafka-floor: commit at %d clients %.1f ops/s, p50 %.2f ms, p99 %.2f ms, %d errors%n",
              count,
              stats.opsPerSecond(),
              stats.percentileMillis(0.5),
              stats.percentileMillis(0.99),
              stats.errors());
        }
      } finally {
        streams.close(Duration.ofSeconds(30));
      }
      if (options.containsKey("json")) {
        Files.writeString(
            Path.of(options.get("json")),
            RestTarget.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(results));
      }
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** One requirement-free commit to a random table; its status as HTTP would answer it. */
  private static int commit(CommandGateway gateway, int tables) {
    CatalogCommand command =
        new CommitTableCommand(
            new CommandHeader(
                UUID.randomUUID().toString(),
                System.currentTimeMillis(),
                "bench",
                gateway.instanceId(),
                null),
            "default",
            TableIdentifier.of("ns", "t" + ThreadLocalRandom.current().nextInt(tables)),
            List.of(),
            List.of());
    try {
      CommandReply reply = gateway.submit(command).get(60, TimeUnit.SECONDS);
      return reply.rejection() == null ? 200 : 409;
    } catch (Exception e) {
      return 500;
    }
  }

  private static Topology topology(Topics topics, GroupCommit groupCommit, String payload) {
    Topology topology = new Topology();
    topology.addSource(
        "commands-in",
        Serdes.String().deserializer(),
        Serdes.ByteArray().deserializer(),
        topics.commands());
    topology.addProcessor("floor", () -> new Echo(groupCommit, payload), "commands-in");
    topology.addStateStore(
        Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(STORE), Serdes.String(), Serdes.ByteArray()),
        "floor");
    topology.addSink(
        "events",
        topics.events(),
        Serdes.String().serializer(),
        Serdes.ByteArray().serializer(),
        "floor");
    topology.addSink(
        "replies",
        topics.replies(),
        Serdes.String().serializer(),
        Serdes.ByteArray().serializer(),
        "floor");
    return topology;
  }

  /** Decides nothing: reads the command, stores, announces and answers it. */
  private static final class Echo implements Processor<String, byte[], String, byte[]> {
    private final GroupCommit groupCommit;
    private final String payload;
    private ProcessorContext<String, byte[]> context;
    private KeyValueStore<String, byte[]> store;

    Echo(GroupCommit groupCommit, String payload) {
      this.groupCommit = groupCommit;
      this.payload = payload;
    }

    @Override
    public void init(ProcessorContext<String, byte[]> context) {
      this.context = context;
      this.store = context.getStateStore(STORE);
    }

    @Override
    public void process(Record<String, byte[]> record) {
      CommitTableCommand command = FloeJson.fromBytes(record.value(), CommitTableCommand.class);
      // A committed table's state is a pointer to its metadata file, a few hundred bytes.
      byte[] state = FloeJson.toBytes(Map.of("pointer", payload));
      store.put(record.key(), state);
      context.forward(record.withValue(FloeJson.toBytes(command)), "events");
      CommandReply reply =
          new CommandReply(
              command.header().commandId(),
              null,
              "file:/floor/" + payload,
              null,
              null,
              null,
              null,
              null);
      context.forward(
          record.withKey(command.header().replyTo()).withValue(FloeJson.toBytes(reply)), "replies");
      groupCommit.commitIfLastPolled(context);
    }
  }
}
