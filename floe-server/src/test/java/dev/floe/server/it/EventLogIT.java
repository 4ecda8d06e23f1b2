package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.events.AuditRecord;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.Main;
import dev.floe.server.it.support.DataFileEntries;
import dev.floe.server.it.support.RestClients;
import dev.floe.server.it.support.ServerEvents;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log is the source of truth: a mixed workload's events replayed into empty stores give the
 * live state back, table by table; every acknowledged change is exactly one event with dense
 * per-entity sequence numbers; a rejected commit leaves no event but an audit record.
 */
class EventLogIT {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()));

  @TempDir static Path dataDir;
  @TempDir static Path outDir;
  private static FloeProcess floe;
  private static RESTCatalog catalog;
  private static Instant afterFirstPhase;
  private static int acknowledgedChanges;
  private static int eventsBesideChanges;

  @BeforeAll
  static void runMixedWorkload() throws Exception {
    floe = new FloeProcess(dataDir).start();
    catalog = RestClients.connect(floe.uri(), Map.of());
    Namespace sales = Namespace.of("sales");
    Namespace eu = Namespace.of("sales", "eu");
    Namespace archive = Namespace.of("archive");
    catalog.createNamespace(sales, new HashMap<>(Map.of("owner", "ana")));
    catalog.createNamespace(eu);
    catalog.createNamespace(archive);
    catalog.setProperties(sales, new HashMap<>(Map.of("tier", "gold")));
    catalog.removeProperties(sales, new HashSet<>(Set.of("owner")));
    acknowledgedChanges += 5;

    Table orders =
        catalog.createTable(
            TableIdentifier.of(eu, "orders"),
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("category").build());
    Table returns = catalog.createTable(TableIdentifier.of(sales, "returns"), SCHEMA);
    acknowledgedChanges += 2;
    for (int i = 0; i < 3; i++) {
      orders.newFastAppend().appendFile(DataFileEntries.of(orders, "c" + i)).commit();
      acknowledgedChanges++;
    }
    orders.updateSchema().addColumn("note", Types.StringType.get()).commit();
    returns.updateProperties().set("k", "v").commit();
    acknowledgedChanges += 2;
    Thread.sleep(50);
    afterFirstPhase = Instant.now();
    Thread.sleep(50);

    // A rejected commit: the table's UUID no longer matches.
    UpdateSchema stale =
        catalog
            .loadTable(TableIdentifier.of(sales, "returns"))
            .updateSchema()
            .addColumn("lost", Types.StringType.get());
    catalog.dropTable(TableIdentifier.of(sales, "returns"), false);
    catalog.createTable(TableIdentifier.of(sales, "returns"), SCHEMA);
    acknowledgedChanges += 2;
    assertThatThrownBy(stale::commit).isInstanceOf(CommitFailedException.class);

    catalog.renameTable(
        TableIdentifier.of(eu, "orders"), TableIdentifier.of(archive, "orders_2025"));
    catalog.renameTable(
        TableIdentifier.of(sales, "returns"), TableIdentifier.of(sales, "returns_v2"));
    acknowledgedChanges += 2;
    Table archived = catalog.loadTable(TableIdentifier.of(archive, "orders_2025"));
    archived.newFastAppend().appendFile(DataFileEntries.of(archived, "late")).commit();
    acknowledgedChanges++;
    String archivedMetadata =
        ((HasTableOperations) archived).operations().current().metadataFileLocation();
    // Drop the table (keeping its files), then register it back, in a namespace whose area holds
    // its files (they stayed in sales.eu's, inside sales'). The dropped table is kept for the
    // recovery period; registering its metadata takes its files over and expunges the kept copy,
    // one more event (floe.table.expunged) of the same acknowledged change.
    catalog.dropTable(TableIdentifier.of(archive, "orders_2025"), false);
    catalog.registerTable(TableIdentifier.of(sales, "orders_restored"), archivedMetadata);
    catalog.dropNamespace(eu);
    acknowledgedChanges += 3;
    eventsBesideChanges += 1;
  }

  @AfterAll
  static void stop() throws Exception {
    catalog.close();
    floe.close();
  }

  @Test
  void replayingTheLogIntoEmptyStoresReproducesTheLiveStateTableByTable() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int exit =
        Main.run(
            new String[] {
              "replay",
              "--data-dir",
              dataDir.toString(),
              "--url",
              floe.uri(),
              "--out",
              outDir.resolve("all").toString()
            },
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    String report = out.toString(StandardCharsets.UTF_8);
    assertThat(report).contains("0 differ").doesNotContain("DIFFERS");
    // Namespaces sales and archive (sales.eu was dropped), tables returns_v2 and orders_restored.
    assertThat(report).contains("4 namespaces and tables compared");
    assertThat(exit).isZero();
    assertThat(outDir.resolve("all").resolve("floe-tables")).isDirectory();
  }

  @Test
  void replayUntilATimeShowsTheCatalogAsItWasThen() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Main.run(
        new String[] {
          "replay",
          "--data-dir",
          dataDir.toString(),
          "--until",
          afterFirstPhase.toString(),
          "--out",
          outDir.resolve("then").toString()
        },
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    String report = out.toString(StandardCharsets.UTF_8);
    assertThat(report)
        .contains("table default/sales.eu.orders")
        .contains("table default/sales.returns");
    assertThat(report).contains("namespace default/sales.eu");
    assertThat(report).doesNotContain("orders_2025").doesNotContain("returns_v2");
  }

  @Test
  void everyAcknowledgedChangeIsExactlyOneEventWithDenseSequencesPerEntity() throws Exception {
    List<CatalogEvent> events = ServerEvents.read(dataDir);

    assertThat(events).hasSize(acknowledgedChanges + eventsBesideChanges);
    // Namespace events share the warehouse's partition, so the log order is their order: 1, 2, 3…
    Map<String, Long> last = new HashMap<>();
    for (CatalogEvent event : events) {
      if (entity(event).startsWith("ns:")) {
        long expected =
            event instanceof NamespaceCreatedEvent ? 1 : last.getOrDefault(entity(event), 0L) + 1;
        assertThat(event.sequence()).as("%s %s", event.type(), entity(event)).isEqualTo(expected);
        last.put(entity(event), event.sequence());
      }
    }
    // A table's events may sit on several partitions (a rename moves it), and a UUID comes back
    // when its metadata is registered again: per UUID the sequences are runs 1..n without gaps
    // or repeats, one run per incarnation.
    Map<String, List<Long>> sequences = new HashMap<>();
    for (CatalogEvent event : events) {
      if (entity(event).startsWith("table:")) {
        sequences.computeIfAbsent(entity(event), k -> new ArrayList<>()).add(event.sequence());
      }
    }
    sequences.forEach(
        (uuid, seen) -> {
          long incarnations = seen.stream().filter(s -> s == 1).count();
          for (long value : seen) {
            long count = seen.stream().filter(s -> s == value).count();
            long before = seen.stream().filter(s -> s == value - 1).count();
            assertThat(count)
                .as("%s sequence %d", uuid, value)
                .isLessThanOrEqualTo(value == 1 ? incarnations : before);
          }
          assertThat(incarnations).as(uuid).isPositive();
        });
    assertThat(events).filteredOn(e -> e.type().equals("floe.table.committed")).hasSize(6);
    // The rejected commit left no event: no committed event ever set "lost".
    assertThat(events.toString()).doesNotContain("lost");
  }

  @Test
  void aRejectedCommitLeavesAnAuditRecordWithTheRequirementThatFailed() throws Exception {
    List<AuditRecord> audit = new ArrayList<>();
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, FloeProcess.embeddedKafka(dataDir));
    long deadline = System.currentTimeMillis() + 20_000;
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor("floe.audit").stream()
              .map(p -> new TopicPartition(p.topic(), p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      while (audit.stream().noneMatch(r -> r.status() == 409)
          && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          audit.add(AuditRecord.fromBytes(record.value()));
        }
      }
    }
    AuditRecord rejected = audit.stream().filter(r -> r.status() == 409).findFirst().orElseThrow();
    assertThat(rejected.errorType()).isEqualTo("CommitFailedException");
    assertThat(rejected.message()).startsWith("Requirement failed: UUID does not match");
    assertThat(rejected.target()).isEqualTo("sales.returns");
    assertThat(rejected.route())
        .isEqualTo("POST /v1/{prefix}/namespaces/{namespace}/tables/{table}");
    assertThat(rejected.principal()).isEqualTo("anonymous");
    assertThat(rejected.commandId()).isNotNull();
    assertThat(audit).filteredOn(r -> r.status() == 200 || r.status() == 204).isNotEmpty();
  }

  private static String entity(CatalogEvent event) {
    if (event instanceof NamespaceCreatedEvent
        || event instanceof NamespacePropertiesUpdatedEvent
        || event instanceof NamespaceDroppedEvent) {
      return "ns:" + event.subject();
    }
    try {
      return "table:" + event.getClass().getMethod("tableUuid").invoke(event);
    } catch (ReflectiveOperationException e) {
      return "other:" + event.subject();
    }
  }
}
