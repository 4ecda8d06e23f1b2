package dev.floe.processor.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.CommandReply;
import dev.floe.events.Keys;
import dev.floe.events.RejectionCode;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.command.CreateNamespaceCommand;
import dev.floe.events.command.CreateTableCommand;
import dev.floe.events.command.DropNamespaceCommand;
import dev.floe.events.command.DropTableCommand;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.infra.storage.LocalFileIO;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.types.Types;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

/**
 * The processor's topology in a {@link TopologyTestDriver}: namespaces and tables created,
 * committed to and dropped; what a storage failure leaves behind.
 */
class CatalogTopologyTest extends TopologyTestSupport {
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
}
