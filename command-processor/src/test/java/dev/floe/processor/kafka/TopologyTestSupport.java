package dev.floe.processor.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.CommandReply;
import dev.floe.events.FloeJson;
import dev.floe.events.Keys;
import dev.floe.events.Topics;
import dev.floe.events.command.CatalogCommand;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CreateNamespaceCommand;
import dev.floe.events.command.CreateTableCommand;
import dev.floe.events.command.TableChange;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.state.IdempotencyRecord;
import dev.floe.events.state.MetadataDocuments;
import dev.floe.events.state.StoreNames;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.MetadataFiles;
import dev.floe.infra.storage.config.StorageConfig;
import dev.floe.processor.step.Step;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.Schema;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor's topology in a {@link TopologyTestDriver}, for the topology tests: commands and
 * steps in; events, steps and replies out; the stores and the metadata files to look at.
 */
abstract class TopologyTestSupport {
  static final Topics TOPICS = Topics.DEFAULT;
  static final String WAREHOUSE = "wh";
  static final String REPLY_TO = "api-1";
  static final long ACCEPTED_AT = 1_700_000_000_000L;
  static final Namespace DB = Namespace.of("db");
  static final TableIdentifier ORDERS = TableIdentifier.of(DB, "orders");
  static final TableIdentifier CUSTOMERS = TableIdentifier.of(DB, "customers");
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "data", Types.StringType.get()));

  @TempDir Path stateDir;
  @TempDir Path warehouseDir;

  FailingMetadataFiles files;
  final Map<String, Long> acceptedAt = new HashMap<>();
  String warehouseRoot;
  Driver driver;

  @BeforeEach
  void startDriver() {
    warehouseRoot = "file://" + warehouseDir.toAbsolutePath();
    files = new FailingMetadataFiles(StorageConfig.local(Map.of(WAREHOUSE, warehouseRoot)));
    driver = new Driver(stateDir);
  }

  @AfterEach
  void closeDriver() {
    driver.close();
  }

  static CommandHeader keyed(CommandHeader header, String idempotencyKey) {
    return new CommandHeader(
        header.commandId(),
        header.timestampMillis(),
        header.principal(),
        header.replyTo(),
        idempotencyKey,
        "sha-256:" + "f".repeat(64));
  }

  static TableChange setBatch(TableIdentifier table, String uuid, String batch) {
    return new TableChange(
        table,
        uuid == null ? List.of() : List.of(new UpdateRequirement.AssertTableUUID(uuid)),
        List.of(new MetadataUpdate.SetProperties(Map.of("batch", batch))));
  }

  String uuidOf(CommandReply created) {
    return files.read(created.metadataLocation()).uuid();
  }

  CreateTableCommand create(TableIdentifier table) {
    return new CreateTableCommand(
        header(), WAREHOUSE, warehouseRoot, table, null, SCHEMA, null, null, Map.of(), false);
  }

  void givenNamespace() {
    driver.send(new CreateNamespaceCommand(header(), WAREHOUSE, DB, Map.of()));
    assertThat(driver.singleReply().accepted()).isTrue();
    assertThat(driver.events()).hasSize(1);
  }

  CommandReply givenTable(CreateTableCommand command) {
    driver.send(command);
    assertThat(driver.stepKeys()).hasSize(1);
    CommandReply reply = driver.singleReply();
    assertThat(reply.accepted()).isTrue();
    assertThat(driver.events()).hasSize(1);
    return reply;
  }

  CreateTableCommand createOrders() {
    return new CreateTableCommand(
        header(), WAREHOUSE, warehouseRoot, ORDERS, null, SCHEMA, null, null, Map.of(), false);
  }

  CommandHeader header() {
    String commandId = String.format("0190b3c2-0000-7000-8000-%012d", acceptedAt.size() + 1);
    long timestamp = ACCEPTED_AT + 1_000L * acceptedAt.size();
    acceptedAt.put(commandId, timestamp);
    return new CommandHeader(commandId, timestamp, "alice", REPLY_TO, null);
  }

  static String fileName(String location) {
    return location.substring(location.lastIndexOf('/') + 1);
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An event as it sits on {@code floe.events}: its key, its raw envelope and its parsed form. */
  record Event(String key, JsonNode json, EventEnvelope envelope) {
    String type() {
      return json.path("type").asText();
    }

    String subject() {
      return json.path("subject").asText();
    }
  }

  /**
   * Writes metadata files, or fails every write while {@link #failing} is set, and every read of a
   * document while {@link #failingReads} is.
   */
  static final class FailingMetadataFiles extends MetadataFiles {
    boolean failing;
    boolean failingReads;

    FailingMetadataFiles(StorageConfig storage) {
      super(storage);
    }

    @Override
    public String document(String location) {
      if (failingReads) {
        throw new MetadataDocuments.UnavailableException(
            "Cannot read table metadata " + location + ": unreachable", null);
      }
      return super.document(location);
    }

    @Override
    public void writeJson(String location, String json) {
      if (failing) {
        throw new UncheckedIOException("Cannot write " + location, new IOException("disk full"));
      }
      super.writeJson(location, json);
    }
  }

  /** The test driver with the topology's input and output topics. */
  final class Driver {
    final TopologyTestDriver driver;
    final TestInputTopic<String, byte[]> commands;
    final TestInputTopic<String, byte[]> stepsIn;
    final TestOutputTopic<String, byte[]> stepsOut;
    final TestOutputTopic<String, byte[]> replies;
    final TestOutputTopic<String, byte[]> events;

    Driver(Path stateDir) {
      this(stateDir, CatalogTopology.build(TOPICS, files), Instant.now());
    }

    /** A driver whose warehouses keep what is dropped for {@code recoveryPeriod}. */
    Driver(Path stateDir, Duration recoveryPeriod, Instant wallClock) {
      this(
          stateDir,
          CatalogTopology.build(
              TOPICS,
              files,
              CatalogTopology.DEFAULT_IDEMPOTENCY_LIFETIME,
              FaultPoints.NONE,
              new GroupCommit(),
              warehouse -> recoveryPeriod),
          wallClock);
    }

    private Driver(Path stateDir, Topology topology, Instant wallClock) {
      Properties props = new Properties();
      props.put(StreamsConfig.APPLICATION_ID_CONFIG, TOPICS.applicationId());
      props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
      props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
      driver = new TopologyTestDriver(topology, props, wallClock);
      StringSerializer keys = new StringSerializer();
      ByteArraySerializer values = new ByteArraySerializer();
      commands = driver.createInputTopic(TOPICS.commands(), keys, values);
      stepsIn = driver.createInputTopic(TOPICS.steps(), keys, values);
      StringDeserializer keysOut = new StringDeserializer();
      ByteArrayDeserializer valuesOut = new ByteArrayDeserializer();
      stepsOut = driver.createOutputTopic(TOPICS.steps(), keysOut, valuesOut);
      replies = driver.createOutputTopic(TOPICS.replies(), keysOut, valuesOut);
      events = driver.createOutputTopic(TOPICS.events(), keysOut, valuesOut);
    }

    void send(CatalogCommand command) {
      commands.pipeInput(command.key(), FloeJson.toBytes(command));
    }

    void sendStep(Step step) {
      stepsIn.pipeInput(step.key(), FloeJson.toBytes(step));
    }

    TableState table(TableIdentifier table) {
      byte[] value =
          driver
              .<String, byte[]>getKeyValueStore(StoreNames.TABLES)
              .get(Keys.table(WAREHOUSE, table));
      return value == null ? null : TableState.fromBytes(value, files);
    }

    byte[] rawTable(TableIdentifier table) {
      return driver
          .<String, byte[]>getKeyValueStore(StoreNames.TABLES)
          .get(Keys.table(WAREHOUSE, table));
    }

    void putRawTable(TableIdentifier table, byte[] value) {
      driver
          .<String, byte[]>getKeyValueStore(StoreNames.TABLES)
          .put(Keys.table(WAREHOUSE, table), value);
    }

    boolean prepared(TableIdentifier table) {
      return driver
              .<String, byte[]>getKeyValueStore(StoreNames.TABLES)
              .get(Keys.prepared(Keys.table(WAREHOUSE, table)))
          != null;
    }

    /**
     * The keys of the steps the processor sent. {@code floe.steps} is also a source topic of the
     * topology, so the test driver has already fed each step back, as Kafka would.
     */
    List<String> stepKeys() {
      return stepsOut.readRecordsToList().stream().map(TestRecord::key).toList();
    }

    /** Delivers the steps the processor sent a second time, as an at-least-once consumer might. */
    int redeliverSteps() {
      List<TestRecord<String, byte[]>> steps = stepsOut.readRecordsToList();
      for (TestRecord<String, byte[]> step : steps) {
        stepsIn.pipeInput(step.key(), step.value());
      }
      return steps.size();
    }

    List<CommandReply> replies() {
      return rawReplies().stream()
          .map(value -> FloeJson.fromBytes(value, CommandReply.class))
          .toList();
    }

    /** The replies' record values, as they sit on {@code floe.replies}. */
    List<byte[]> rawReplies() {
      List<byte[]> result = new ArrayList<>();
      for (TestRecord<String, byte[]> record : replies.readRecordsToList()) {
        assertThat(record.key())
            .as("replies are keyed by the waiting instance")
            .isEqualTo(REPLY_TO);
        result.add(record.value());
      }
      return result;
    }

    byte[] singleRawReply() {
      List<byte[]> all = rawReplies();
      assertThat(all).hasSize(1);
      return all.get(0);
    }

    /** The value of a keyed request's record in the idempotency store (and its changelog). */
    byte[] idempotencyRecord(CommandHeader header) {
      byte[] value =
          driver
              .<String, byte[]>getKeyValueStore(StoreNames.IDEMPOTENCY)
              .get(IdempotencyRecord.key(header.principal(), header.idempotencyKey()));
      assertThat(value).as("the idempotency record of %s", header.idempotencyKey()).isNotNull();
      return value;
    }

    CommandReply singleReply() {
      List<CommandReply> all = replies();
      assertThat(all).hasSize(1);
      return all.get(0);
    }

    /** Reads the events, checking each one's CloudEvents attributes. */
    List<Event> events() {
      List<Event> result = new ArrayList<>();
      for (TestRecord<String, byte[]> record : events.readRecordsToList()) {
        EventEnvelope envelope = EventEnvelope.fromBytes(record.value());
        JsonNode json = readTree(record.value());
        assertThat(json.path("specversion").asText()).isEqualTo("1.0");
        assertThat(json.path("id").asText())
            .startsWith(envelope.data().commandId() + ":")
            .isEqualTo(envelope.id());
        assertThat(json.path("source").asText()).isEqualTo("/floe/warehouses/" + WAREHOUSE);
        assertThat(json.path("type").asText()).startsWith("floe.").isEqualTo(envelope.type());
        assertThat(json.path("subject").asText()).isNotBlank().isEqualTo(envelope.subject());
        assertThat(json.path("datacontenttype").asText()).isEqualTo("application/json");
        assertThat(json.path("time").asText())
            .as("the time the command was accepted")
            .isEqualTo(Instant.ofEpochMilli(acceptedAt.get(envelope.data().commandId())).toString())
            .isEqualTo(envelope.time());
        assertThat(json.path("data").isObject()).isTrue();
        assertThat(record.key()).isEqualTo(envelope.data().key());
        result.add(new Event(record.key(), json, envelope));
      }
      return result;
    }

    void close() {
      driver.close();
    }

    static JsonNode readTree(byte[] bytes) {
      try {
        return FloeJson.mapper().readTree(bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
