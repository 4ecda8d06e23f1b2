package dev.floe.processor.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.CommandReply;
import dev.floe.events.FloeJson;
import dev.floe.events.Keys;
import dev.floe.events.RejectionCode;
import dev.floe.events.Topics;
import dev.floe.events.command.CatalogCommand;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.command.CommitTransactionCommand;
import dev.floe.events.command.CreateNamespaceCommand;
import dev.floe.events.command.CreateTableCommand;
import dev.floe.events.command.DropNamespaceCommand;
import dev.floe.events.command.DropTableCommand;
import dev.floe.events.command.RenameTableCommand;
import dev.floe.events.command.TableChange;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.state.IdempotencyRecord;
import dev.floe.events.state.MetadataDocuments;
import dev.floe.events.state.StoreNames;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.LocalFileIO;
import dev.floe.infra.storage.MetadataFiles;
import dev.floe.processor.step.PrepareTableStep;
import dev.floe.processor.step.ResolvePreparedStep;
import dev.floe.processor.step.TableStep;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
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
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor's topology in a {@link TopologyTestDriver}: commands in; events and replies out.
 */
class CatalogTopologyTest {
  private static final Topics TOPICS = Topics.DEFAULT;
  private static final String WAREHOUSE = "wh";
  private static final String REPLY_TO = "api-1";
  private static final long ACCEPTED_AT = 1_700_000_000_000L;
  private static final Namespace DB = Namespace.of("db");
  private static final TableIdentifier ORDERS = TableIdentifier.of(DB, "orders");
  private static final TableIdentifier CUSTOMERS = TableIdentifier.of(DB, "customers");
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "data", Types.StringType.get()));

  @TempDir Path stateDir;
  @TempDir Path warehouseDir;

  private final FailingMetadataFiles files = new FailingMetadataFiles();
  private final Map<String, Long> acceptedAt = new HashMap<>();
  private String warehouseRoot;
  private Driver driver;

  @BeforeEach
  void startDriver() {
    warehouseRoot = "file://" + warehouseDir.toAbsolutePath();
    driver = new Driver(stateDir);
  }

  @AfterEach
  void closeDriver() {
    driver.close();
  }

  @Test
  void createsNamespace() {
    CreateNamespaceCommand command =
        new CreateNamespaceCommand(header(), WAREHOUSE, DB, Map.of("owner", "alice"));

    driver.send(command);

    assertThat(driver.replies())
        .containsExactly(
            CommandReply.namespace(command.header().commandId(), Map.of("owner", "alice")));
    List<Event> events = driver.events();
    assertThat(events).extracting(Event::type).containsExactly("floe.namespace.created");
    assertThat(events.get(0).key()).isEqualTo(Keys.warehouse(WAREHOUSE));
    assertThat(events.get(0).subject()).isEqualTo("db");
  }

  @Test
  void createsTableThroughItsStepAndWritesMetadataFile() {
    givenNamespace();
    CreateTableCommand command = createOrders();

    driver.send(command);

    assertThat(driver.stepKeys()).containsExactly(command.tableKey());
    CommandReply reply = driver.singleReply();
    assertThat(reply.accepted()).isTrue();
    assertThat(reply.commandId()).isEqualTo(command.header().commandId());
    assertThat(reply.metadata()).as("the reply names the file, it does not copy it").isNull();
    assertThat(reply.metadataLocation()).startsWith(warehouseRoot + "/db/orders-");
    List<Event> events = driver.events();
    assertThat(events).extracting(Event::type).containsExactly("floe.table.created");
    TableCreatedEvent created = (TableCreatedEvent) events.get(0).envelope().data();
    assertThat(created.sequence()).isEqualTo(1);
    assertThat(created.metadataLocation()).isEqualTo(reply.metadataLocation());
    assertThat(events.get(0).key()).isEqualTo(command.tableKey());
    Path file = LocalFileIO.toPath(reply.metadataLocation());
    assertThat(file).exists();
    TableMetadata onDisk = TableMetadataParser.fromJson(reply.metadataLocation(), read(file));
    assertThat(onDisk.uuid()).isEqualTo(created.tableUuid());
    assertThat(onDisk.schema().asStruct()).isEqualTo(SCHEMA.asStruct());
  }

  @Test
  void namesCreatedMetadataFileAfterCreateCommand() {
    givenNamespace();
    CreateTableCommand command = createOrders();

    String location = givenTable(command).metadataLocation();

    assertThat(fileName(location))
        .isEqualTo("00000-" + command.header().commandId() + ".metadata.json");
  }

  @Test
  void reprocessedCreateCommandWritesTheSameMetadataFile() {
    givenNamespace();
    CreateTableCommand command = createOrders();
    CommandReply first = givenTable(command);
    driver.close();

    // A crash before the transaction committed: the command is decided again from empty stores.
    driver = new Driver(stateDir.resolve("restarted"));
    givenNamespace();
    driver.send(command);

    CommandReply again = driver.singleReply();
    assertThat(again.metadataLocation()).isEqualTo(first.metadataLocation());
    assertThat(fileName(again.metadataLocation())).contains(command.header().commandId());
    assertThat(files.read(again.metadataLocation()).uuid())
        .isEqualTo(files.read(first.metadataLocation()).uuid());
  }

  @Test
  void refusesDuplicateCreateStepWithoutReplacingTable() throws IOException {
    givenNamespace();
    CreateTableCommand command = createOrders();
    driver.send(command);
    CommandReply created = driver.singleReply();
    driver.events();
    Path file = LocalFileIO.toPath(created.metadataLocation());
    String written = Files.readString(file);

    assertThat(driver.redeliverSteps()).isEqualTo(1);

    CommandReply duplicate = driver.singleReply();
    assertThat(duplicate.rejection().code()).isEqualTo(RejectionCode.TABLE_ALREADY_EXISTS);
    assertThat(driver.events()).isEmpty();
    assertThat(Files.readString(file)).isEqualTo(written);
  }

  @Test
  void commitsSchemaChange() {
    givenNamespace();
    CommandReply created = givenTable(createOrders());
    TableMetadata base = files.read(created.metadataLocation());
    Schema evolved =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "data", Types.StringType.get()),
            Types.NestedField.optional(3, "ts", Types.TimestampType.withZone()));
    CommitTableCommand commit =
        new CommitTableCommand(
            header(),
            WAREHOUSE,
            ORDERS,
            List.of(
                new UpdateRequirement.AssertTableUUID(base.uuid()),
                new UpdateRequirement.AssertCurrentSchemaID(0)),
            List.of(
                new MetadataUpdate.AddSchema(evolved), new MetadataUpdate.SetCurrentSchema(-1)));

    driver.send(commit);

    CommandReply reply = driver.singleReply();
    assertThat(reply.accepted()).isTrue();
    assertThat(reply.metadataLocation())
        .isNotEqualTo(created.metadataLocation())
        .contains(commit.header().commandId());
    List<Event> events = driver.events();
    assertThat(events).extracting(Event::type).containsExactly("floe.table.committed");
    TableCommittedEvent committed = (TableCommittedEvent) events.get(0).envelope().data();
    assertThat(committed.sequence()).isEqualTo(2);
    assertThat(committed.previousMetadataLocation()).isEqualTo(created.metadataLocation());
    assertThat(committed.metadataLocation()).isEqualTo(reply.metadataLocation());
    assertThat(events.get(0).key()).isEqualTo(commit.key());
    TableMetadata onDisk =
        TableMetadataParser.fromJson(
            reply.metadataLocation(), read(LocalFileIO.toPath(reply.metadataLocation())));
    assertThat(onDisk.currentSchemaId()).isEqualTo(1);
    assertThat(onDisk.schema().findField("ts")).isNotNull();
  }

  @Test
  void rejectsCommitWhenTableUuidDiffers() {
    givenNamespace();
    givenTable(createOrders());
    CommitTableCommand commit =
        new CommitTableCommand(
            header(),
            WAREHOUSE,
            ORDERS,
            List.of(new UpdateRequirement.AssertTableUUID("00000000-0000-0000-0000-000000000000")),
            List.of(new MetadataUpdate.SetProperties(Map.of("owner", "bob"))));

    driver.send(commit);

    CommandReply reply = driver.singleReply();
    assertThat(reply.accepted()).isFalse();
    assertThat(reply.rejection().code()).isEqualTo(RejectionCode.REQUIREMENT_FAILED);
    assertThat(reply.rejection().message()).startsWith("Requirement failed: UUID does not match");
    assertThat(driver.events()).isEmpty();
  }

  @Test
  void rejectsCommitOnMissingTable() {
    givenNamespace();
    CommitTableCommand commit =
        new CommitTableCommand(header(), WAREHOUSE, ORDERS, List.of(), List.of());

    driver.send(commit);

    CommandReply reply = driver.singleReply();
    assertThat(reply.rejection().code()).isEqualTo(RejectionCode.TABLE_NOT_FOUND);
    assertThat(reply.rejection().message()).isEqualTo("Table does not exist: db.orders");
    assertThat(driver.events()).isEmpty();
  }

  @Test
  void rejectsDropOfNamespaceThatHoldsTable() {
    givenNamespace();
    givenTable(createOrders());

    driver.send(new DropNamespaceCommand(header(), WAREHOUSE, DB));

    CommandReply reply = driver.singleReply();
    assertThat(reply.rejection().code()).isEqualTo(RejectionCode.NAMESPACE_NOT_EMPTY);
    assertThat(driver.events()).isEmpty();
  }

  @Test
  void rejectsDropOfNamespaceWithChildButNotOfItsSibling() {
    givenNamespace();
    driver.send(new CreateNamespaceCommand(header(), WAREHOUSE, Namespace.of("db", "s"), null));
    driver.send(new CreateNamespaceCommand(header(), WAREHOUSE, Namespace.of("dbx"), null));
    assertThat(driver.replies()).extracting(CommandReply::accepted).containsExactly(true, true);
    driver.events();

    driver.send(new DropNamespaceCommand(header(), WAREHOUSE, DB));
    driver.send(new DropNamespaceCommand(header(), WAREHOUSE, Namespace.of("dbx")));

    List<CommandReply> replies = driver.replies();
    assertThat(replies).hasSize(2);
    assertThat(replies.get(0).rejection().message())
        .isEqualTo("Namespace db is not empty. Contains namespaces.");
    assertThat(replies.get(1).accepted()).isTrue();
    assertThat(driver.events()).extracting(Event::subject).containsExactly("dbx");
  }

  @Test
  void dropsTableThroughItsStepThenNamespace() {
    givenNamespace();
    CommandReply created = givenTable(createOrders());
    DropTableCommand drop = new DropTableCommand(header(), WAREHOUSE, ORDERS, false);

    driver.send(drop);

    assertThat(driver.stepKeys()).containsExactly(drop.tableKey());
    assertThat(driver.singleReply()).isEqualTo(CommandReply.done(drop.header().commandId()));
    List<Event> events = driver.events();
    assertThat(events).extracting(Event::type).containsExactly("floe.table.dropped");
    TableDroppedEvent dropped = (TableDroppedEvent) events.get(0).envelope().data();
    assertThat(dropped.sequence()).isEqualTo(2);
    assertThat(dropped.metadataLocation()).isEqualTo(created.metadataLocation());

    DropNamespaceCommand dropNamespace = new DropNamespaceCommand(header(), WAREHOUSE, DB);
    driver.send(dropNamespace);

    assertThat(driver.singleReply())
        .isEqualTo(CommandReply.done(dropNamespace.header().commandId()));
    assertThat(driver.events()).extracting(Event::type).containsExactly("floe.namespace.dropped");
  }

  @Test
  void rejectsCommitAfterTableWasDropped() {
    givenNamespace();
    givenTable(createOrders());
    driver.send(new DropTableCommand(header(), WAREHOUSE, ORDERS, false));
    assertThat(driver.singleReply().accepted()).isTrue();
    assertThat(driver.events()).extracting(Event::type).containsExactly("floe.table.dropped");

    driver.send(new CommitTableCommand(header(), WAREHOUSE, ORDERS, List.of(), List.of()));

    assertThat(driver.singleReply().rejection().code()).isEqualTo(RejectionCode.TABLE_NOT_FOUND);
  }

  @Test
  void repliesStorageFailedWhenCreatedMetadataCannotBeWritten() {
    givenNamespace();
    files.failing = true;

    driver.send(createOrders());

    CommandReply reply = driver.singleReply();
    assertThat(reply.rejection().code()).isEqualTo(RejectionCode.STORAGE_FAILED);
    assertThat(reply.rejection().message()).startsWith("Cannot write table metadata: ");
    assertThat(driver.events()).isEmpty();
    driver.send(new CommitTableCommand(header(), WAREHOUSE, ORDERS, List.of(), List.of()));
    assertThat(driver.singleReply().rejection().code()).isEqualTo(RejectionCode.TABLE_NOT_FOUND);
  }

  @Test
  void repliesStorageFailedAndKeepsTableWhenCommittedMetadataCannotBeWritten() {
    givenNamespace();
    CommandReply created = givenTable(createOrders());
    files.failing = true;
    List<MetadataUpdate> setOwner = List.of(new MetadataUpdate.SetProperties(Map.of("o", "b")));

    driver.send(new CommitTableCommand(header(), WAREHOUSE, ORDERS, List.of(), setOwner));

    assertThat(driver.singleReply().rejection().code()).isEqualTo(RejectionCode.STORAGE_FAILED);
    assertThat(driver.events()).isEmpty();
    files.failing = false;
    driver.send(new CommitTableCommand(header(), WAREHOUSE, ORDERS, List.of(), setOwner));
    List<Event> events = driver.events();
    assertThat(events).extracting(Event::type).containsExactly("floe.table.committed");
    TableCommittedEvent committed = (TableCommittedEvent) events.get(0).envelope().data();
    assertThat(committed.sequence()).isEqualTo(2);
    assertThat(committed.previousMetadataLocation()).isEqualTo(created.metadataLocation());
  }

  /**
   * STORAGE_FAILED promises that nothing was applied and the client may retry: the directory
   * releases the name the failed create claimed before the reply is sent.
   */
  @Test
  void createMayBeRetriedAfterStorageFailure() {
    givenNamespace();
    files.failing = true;
    driver.send(createOrders());
    assertThat(driver.singleReply().rejection().code()).isEqualTo(RejectionCode.STORAGE_FAILED);
    files.failing = false;

    driver.send(createOrders());

    assertThat(driver.singleReply().rejection()).isNull();
    assertThat(driver.events()).extracting(Event::type).containsExactly("floe.table.created");
  }

  /** The released name no longer counts as a table of the namespace. */
  @Test
  void namespaceMayBeDroppedAfterCreateFailedToWriteMetadata() {
    givenNamespace();
    files.failing = true;
    driver.send(createOrders());
    assertThat(driver.singleReply().rejection().code()).isEqualTo(RejectionCode.STORAGE_FAILED);

    driver.send(new DropNamespaceCommand(header(), WAREHOUSE, DB));

    assertThat(driver.singleReply().rejection()).isNull();
  }

  @Test
  void transactionCommitsEveryTableAndWritesTheirEventsTogether() {
    givenNamespace();
    CommandReply orders = givenTable(createOrders());
    CommandReply customers = givenTable(create(CUSTOMERS));
    CommitTransactionCommand transaction =
        new CommitTransactionCommand(
            header(),
            WAREHOUSE,
            List.of(
                setBatch(ORDERS, uuidOf(orders), "1"),
                setBatch(CUSTOMERS, uuidOf(customers), "1")));

    driver.send(transaction);

    CommandReply reply = driver.singleReply();
    assertThat(reply.accepted()).isTrue();
    assertThat(reply.commandId()).isEqualTo(transaction.header().commandId());
    List<Event> events = driver.events();
    assertThat(events)
        .extracting(Event::type)
        .containsExactly("floe.table.committed", "floe.table.committed");
    assertThat(events)
        .extracting(Event::key)
        .containsExactly(Keys.table(WAREHOUSE, ORDERS), Keys.table(WAREHOUSE, CUSTOMERS));
    assertThat(events)
        .extracting(event -> event.envelope().id())
        .containsExactly(
            transaction.header().commandId() + ":0", transaction.header().commandId() + ":1");
    for (TableIdentifier table : List.of(ORDERS, CUSTOMERS)) {
      TableState state = driver.table(table);
      assertThat(state.sequence()).isEqualTo(2);
      assertThat(TableMetadataParser.fromJson(state.metadataJson()).properties())
          .containsEntry("batch", "1");
      assertThat(LocalFileIO.toPath(state.metadataLocation())).exists();
      assertThat(driver.prepared(table)).isFalse();
    }
  }

  @Test
  void transactionWithOneFailedRequirementChangesNoTable() throws IOException {
    givenNamespace();
    CommandReply orders = givenTable(createOrders());
    CommandReply customers = givenTable(create(CUSTOMERS));
    CommitTransactionCommand transaction =
        new CommitTransactionCommand(
            header(),
            WAREHOUSE,
            List.of(
                setBatch(ORDERS, uuidOf(orders), "1"),
                setBatch(CUSTOMERS, "00000000-0000-0000-0000-000000000000", "1")));

    driver.send(transaction);

    CommandReply reply = driver.singleReply();
    assertThat(reply.rejection().code()).isEqualTo(RejectionCode.REQUIREMENT_FAILED);
    assertThat(reply.rejection().message())
        .startsWith("Table db.customers: Requirement failed: UUID does not match");
    assertThat(driver.events()).isEmpty();
    assertThat(driver.table(ORDERS).metadataLocation()).isEqualTo(orders.metadataLocation());
    assertThat(driver.table(CUSTOMERS).metadataLocation()).isEqualTo(customers.metadataLocation());
    assertThat(driver.prepared(ORDERS)).isFalse();
    try (var files = Files.list(LocalFileIO.toPath(orders.metadataLocation()).getParent())) {
      assertThat(files.toList())
          .as("the metadata file orders prepared is deleted with the abort")
          .containsExactly(LocalFileIO.toPath(orders.metadataLocation()));
    }
  }

  @Test
  void transactionOnAMissingTableIsRefusedBeforeAnyTableIsPrepared() {
    givenNamespace();
    CommandReply orders = givenTable(createOrders());

    driver.send(
        new CommitTransactionCommand(
            header(),
            WAREHOUSE,
            List.of(setBatch(ORDERS, uuidOf(orders), "1"), setBatch(CUSTOMERS, null, "1"))));

    assertThat(driver.singleReply().rejection().code()).isEqualTo(RejectionCode.TABLE_NOT_FOUND);
    assertThat(driver.stepKeys()).isEmpty();
    assertThat(driver.events()).isEmpty();
  }

  /**
   * A commit that arrives while its table is prepared waits, then is decided on top of the
   * transaction's result. The prepare is sent by hand here, so no coordinator expects its vote.
   */
  @Test
  void commitToAPreparedTableWaitsForTheDecisionAndBuildsOnIt() {
    givenNamespace();
    CommandReply orders = givenTable(createOrders());
    CommandHeader transaction = header();
    driver.sendStep(
        new PrepareTableStep(
            transaction,
            WAREHOUSE,
            ORDERS,
            List.of(new UpdateRequirement.AssertTableUUID(uuidOf(orders))),
            List.of(new MetadataUpdate.SetProperties(Map.of("batch", "1")))));
    assertThat(driver.prepared(ORDERS)).isTrue();
    driver.stepKeys();
    CommitTableCommand commit =
        new CommitTableCommand(
            header(),
            WAREHOUSE,
            ORDERS,
            List.of(),
            List.of(new MetadataUpdate.SetProperties(Map.of("after", "yes"))));

    driver.send(commit);
    assertThat(driver.replies()).as("the commit waits for the transaction").isEmpty();
    assertThat(driver.table(ORDERS).metadataLocation()).isEqualTo(orders.metadataLocation());

    driver.sendStep(new ResolvePreparedStep(transaction, WAREHOUSE, ORDERS, true));

    CommandReply reply = driver.singleReply();
    assertThat(reply.commandId()).isEqualTo(commit.header().commandId());
    assertThat(reply.accepted()).isTrue();
    TableCommittedEvent committed = (TableCommittedEvent) driver.events().get(0).envelope().data();
    assertThat(committed.sequence()).isEqualTo(3);
    assertThat(committed.previousMetadataLocation()).contains(transaction.commandId());
    assertThat(TableMetadataParser.fromJson(driver.table(ORDERS).metadataJson()).properties())
        .containsEntry("batch", "1")
        .containsEntry("after", "yes");
    assertThat(driver.prepared(ORDERS)).isFalse();
  }

  /**
   * A keyed commit's reply (on {@code floe.replies}) and its idempotency record (a changelogged
   * store) name the metadata file and never copy the document: they keep one size while the table's
   * metadata grows by 10 kB with every commit, and a retry is answered with the same file.
   */
  @Test
  void replyAndIdempotencyRecordStayOneSizeWhileTheTableGrows() {
    givenNamespace();
    givenTable(createOrders());
    String value = "v".repeat(10_000);
    java.util.Set<Integer> replySizes = new java.util.HashSet<>();
    java.util.Set<Integer> recordSizes = new java.util.HashSet<>();
    CommandHeader last = null;
    CommandReply lastReply = null;
    for (int i = 0; i < 40; i++) {
      last = keyed(header(), String.format("0190b3c2-0000-7000-9000-%012d", i));
      driver.send(
          new CommitTableCommand(
              last,
              WAREHOUSE,
              ORDERS,
              List.of(),
              List.of(new MetadataUpdate.SetProperties(Map.of("p" + i, value)))));
      byte[] reply = driver.singleRawReply();
      lastReply = FloeJson.fromBytes(reply, CommandReply.class);
      assertThat(lastReply.accepted()).isTrue();
      replySizes.add(reply.length);
      recordSizes.add(driver.idempotencyRecord(last).length);
      driver.events();
    }

    assertThat(driver.table(ORDERS).metadataJson().length()).isGreaterThan(400_000);
    assertThat(replySizes).hasSize(1).allSatisfy(size -> assertThat(size).isLessThan(512));
    assertThat(recordSizes).hasSize(1).allSatisfy(size -> assertThat(size).isLessThan(1024));
    assertThat(files.read(lastReply.metadataLocation()).properties().containsKey("p39")).isTrue();

    CommandHeader retry = keyed(header(), last.idempotencyKey());
    driver.send(new CommitTableCommand(retry, WAREHOUSE, ORDERS, List.of(), List.of()));

    assertThat(driver.singleReply())
        .isEqualTo(CommandReply.table(retry.commandId(), lastReply.metadataLocation()));
    assertThat(driver.events()).isEmpty();
  }

  private static CommandHeader keyed(CommandHeader header, String idempotencyKey) {
    return new CommandHeader(
        header.commandId(),
        header.timestampMillis(),
        header.principal(),
        header.replyTo(),
        idempotencyKey,
        "sha-256:" + "f".repeat(64));
  }

  private static TableChange setBatch(TableIdentifier table, String uuid, String batch) {
    return new TableChange(
        table,
        uuid == null ? List.of() : List.of(new UpdateRequirement.AssertTableUUID(uuid)),
        List.of(new MetadataUpdate.SetProperties(Map.of("batch", batch))));
  }

  private String uuidOf(CommandReply created) {
    return files.read(created.metadataLocation()).uuid();
  }

  private CreateTableCommand create(TableIdentifier table) {
    return new CreateTableCommand(
        header(), WAREHOUSE, warehouseRoot, table, null, SCHEMA, null, null, Map.of(), false);
  }

  @Test
  void aTablesStoredValueKeepsOneSizeWhileItsMetadataGrows() throws IOException {
    givenNamespace();
    givenTable(createOrders());
    int stored = driver.rawTable(ORDERS).length;
    long firstFile = Files.size(LocalFileIO.toPath(driver.table(ORDERS).metadataLocation()));

    for (int i = 0; i < 10; i++) {
      driver.send(
          new CommitTableCommand(
              header(),
              WAREHOUSE,
              ORDERS,
              List.of(),
              List.of(new MetadataUpdate.SetProperties(Map.of("p" + i, "x".repeat(2_000))))));
      assertThat(driver.singleReply().accepted()).isTrue();
    }

    TableState state = driver.table(ORDERS);
    assertThat(state.sequence()).isEqualTo(11);
    assertThat(Files.size(LocalFileIO.toPath(state.metadataLocation())))
        .isGreaterThan(firstFile + 20_000);
    assertThat(driver.rawTable(ORDERS))
        .as("the store keeps a pointer to the file, not the document")
        .hasSize(stored);
    assertThat(stored).isLessThan(300);
    assertThat(TableMetadataParser.fromJson(state.metadataJson()).properties()).containsKey("p9");
  }

  @Test
  void aValueOfTheFirstFormatIsStillCommittedOn() {
    givenNamespace();
    givenTable(createOrders());
    TableState before = driver.table(ORDERS);
    driver.putRawTable(ORDERS, TableState.toInlineBytes(before));

    driver.send(
        new CommitTableCommand(
            header(),
            WAREHOUSE,
            ORDERS,
            List.of(new UpdateRequirement.AssertTableUUID(before.tableUuid())),
            List.of(new MetadataUpdate.SetProperties(Map.of("owner", "carol")))));

    assertThat(driver.singleReply().accepted()).isTrue();
    TableState after = driver.table(ORDERS);
    assertThat(after.sequence()).isEqualTo(before.sequence() + 1);
    assertThat(TableMetadataParser.fromJson(after.metadataJson()).properties())
        .containsEntry("owner", "carol");
    assertThat(driver.rawTable(ORDERS).length).isLessThan(TableState.toInlineBytes(after).length);
  }

  @Test
  void aRenameMovesThePointerWithoutReadingTheMetadataFile() {
    givenNamespace();
    CommandReply created = givenTable(createOrders());
    TableIdentifier sales = TableIdentifier.of(DB, "sales");
    files.failingReads = true;

    driver.send(new RenameTableCommand(header(), WAREHOUSE, ORDERS, sales));

    assertThat(driver.singleReply().accepted()).isTrue();
    assertThat(driver.events()).extracting(Event::type).containsExactly("floe.table.renamed");
    assertThat(driver.table(ORDERS)).isNull();
    TableState moved = driver.table(sales);
    assertThat(moved.metadataLocation()).isEqualTo(created.metadataLocation());
    assertThat(moved.sequence()).isEqualTo(2);
    files.failingReads = false;
    assertThat(TableMetadataParser.fromJson(moved.metadataJson()).uuid())
        .isEqualTo(uuidOf(created));
  }

  @Test
  void aCommitWhoseMetadataFileCannotBeReadIsRefusedAndChangesNothing() {
    givenNamespace();
    CommandReply created = givenTable(createOrders());
    TableIdentifier sales = TableIdentifier.of(DB, "sales");
    driver.send(new RenameTableCommand(header(), WAREHOUSE, ORDERS, sales));
    assertThat(driver.singleReply().accepted()).isTrue();
    driver.events();
    // The renamed table's parsed metadata is not cached under its new key: the commit needs the
    // file.
    files.failingReads = true;

    driver.send(
        new CommitTableCommand(
            header(),
            WAREHOUSE,
            sales,
            List.of(),
            List.of(new MetadataUpdate.SetProperties(Map.of("owner", "dave")))));

    CommandReply refused = driver.singleReply();
    assertThat(refused.rejection().code()).isEqualTo(RejectionCode.STORAGE_FAILED);
    assertThat(refused.rejection().message()).contains(created.metadataLocation());
    assertThat(driver.events()).isEmpty();
    assertThat(driver.table(sales).metadataLocation()).isEqualTo(created.metadataLocation());
  }

  private void givenNamespace() {
    driver.send(new CreateNamespaceCommand(header(), WAREHOUSE, DB, Map.of()));
    assertThat(driver.singleReply().accepted()).isTrue();
    assertThat(driver.events()).hasSize(1);
  }

  private CommandReply givenTable(CreateTableCommand command) {
    driver.send(command);
    assertThat(driver.stepKeys()).hasSize(1);
    CommandReply reply = driver.singleReply();
    assertThat(reply.accepted()).isTrue();
    assertThat(driver.events()).hasSize(1);
    return reply;
  }

  private CreateTableCommand createOrders() {
    return new CreateTableCommand(
        header(), WAREHOUSE, warehouseRoot, ORDERS, null, SCHEMA, null, null, Map.of(), false);
  }

  private CommandHeader header() {
    String commandId = String.format("0190b3c2-0000-7000-8000-%012d", acceptedAt.size() + 1);
    long timestamp = ACCEPTED_AT + 1_000L * acceptedAt.size();
    acceptedAt.put(commandId, timestamp);
    return new CommandHeader(commandId, timestamp, "alice", REPLY_TO, null);
  }

  private static String fileName(String location) {
    return location.substring(location.lastIndexOf('/') + 1);
  }

  private static String read(Path file) {
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
  private static final class FailingMetadataFiles extends MetadataFiles {
    boolean failing;
    boolean failingReads;

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
  private final class Driver {
    private final TopologyTestDriver driver;
    private final TestInputTopic<String, byte[]> commands;
    private final TestInputTopic<String, byte[]> stepsIn;
    private final TestOutputTopic<String, byte[]> stepsOut;
    private final TestOutputTopic<String, byte[]> replies;
    private final TestOutputTopic<String, byte[]> events;

    Driver(Path stateDir) {
      Properties props = new Properties();
      props.put(StreamsConfig.APPLICATION_ID_CONFIG, TOPICS.applicationId());
      props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
      props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
      driver = new TopologyTestDriver(CatalogTopology.build(TOPICS, files), props);
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

    void sendStep(TableStep step) {
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

    private static JsonNode readTree(byte[] bytes) {
      try {
        return FloeJson.mapper().readTree(bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
