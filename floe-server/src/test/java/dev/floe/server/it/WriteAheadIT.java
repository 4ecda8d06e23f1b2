package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.event.TableCommittedEvent;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.DataFileEntries;
import dev.floe.server.it.support.RestClients;
import dev.floe.server.it.support.ServerEvents;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commits whose metadata file the API writes ahead (docs/architecture.md, <i>Writing ahead</i>),
 * through a real server and the Java client: a lone writer's commits are all taken from the files
 * written ahead, and under contention every commit still applies once, while no file written for a
 * commit that was decided again is left behind.
 */
class WriteAheadIT {
  private static final Namespace DB = Namespace.of("db");
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  /** A local warehouse is written ahead only when told to (by default: object storage only). */
  private static final Map<String, String> WRITE_AHEAD =
      Map.of("floe.warehouse.default.write-ahead", "on");

  @TempDir Path dataDir;

  @Test
  void aLoneWritersAppendsAreTakenFromTheFilesTheApiWroteAhead() throws Exception {
    TableIdentifier orders = TableIdentifier.of(DB, "orders");
    try (FloeProcess floe = new FloeProcess(dataDir, WRITE_AHEAD).start();
        RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
      catalog.createNamespace(DB);
      Table table = catalog.createTable(orders, SCHEMA, PartitionSpec.unpartitioned());
      for (int i = 0; i < 8; i++) {
        table.newFastAppend().appendFile(DataFileEntries.of(table, "x")).commit();
      }

      List<TableCommittedEvent> commits = committed(orders);
      assertThat(commits).hasSize(8);
      // The processor names a file it writes by the command's id; a file written ahead is named
      // by the API, so none of these carries its command's id.
      assertThat(commits)
          .allSatisfy(c -> assertThat(c.metadataLocation()).doesNotContain(c.commandId()));
      Table loaded = catalog.loadTable(orders);
      assertThat(loaded.snapshots()).hasSize(8);
      assertThat(metadataOf(loaded).metadataFileLocation())
          .isEqualTo(commits.get(7).metadataLocation());
      assertThat(unreferencedFiles(loaded)).isEmpty();
    }
  }

  @Test
  void contestedCommitsAllApplyOnceAndLeaveNoUnusedFile() throws Exception {
    TableIdentifier hot = TableIdentifier.of(DB, "hot");
    int clients = 8;
    int commitsEach = 6;
    try (FloeProcess floe = new FloeProcess(dataDir, WRITE_AHEAD).start()) {
      try (RESTCatalog admin = RestClients.connect(floe.uri(), Map.of())) {
        admin.createNamespace(DB);
        admin.createTable(hot, SCHEMA, PartitionSpec.unpartitioned());
      }
      CountDownLatch go = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(clients);
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int client = c;
        running.add(
            pool.submit(
                () -> {
                  try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
                    go.await();
                    for (int i = 0; i < commitsEach; i++) {
                      // Requirement-free but for the table's uuid: never a conflict, so each is
                      // taken ahead or decided again, and applies once either way.
                      catalog
                          .loadTable(hot)
                          .updateProperties()
                          .set("c" + client + "-" + i, "v")
                          .commit();
                    }
                  }
                  return null;
                }));
      }
      go.countDown();
      for (Future<?> client : running) {
        client.get();
      }
      pool.shutdown();

      try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
        Table table = catalog.loadTable(hot);
        assertThat(table.properties().keySet().stream().filter(k -> k.matches("c\\d-\\d")))
            .hasSize(clients * commitsEach);
        List<TableCommittedEvent> commits = committed(hot);
        assertThat(commits).hasSize(clients * commitsEach);
        // Commits under way at once are decided one on the other and their files taken in turn,
        // so contention from one instance does not send them back to the processor.
        assertThat(commits.stream().filter(c -> !c.metadataLocation().contains(c.commandId())))
            .hasSizeGreaterThanOrEqualTo(clients * commitsEach * 3 / 4);
        // Files written ahead for commits decided again are deleted right after their answer.
        long deadline = System.currentTimeMillis() + 10_000;
        while (!unreferencedFiles(table).isEmpty() && System.currentTimeMillis() < deadline) {
          Thread.sleep(100);
        }
        assertThat(unreferencedFiles(table)).isEmpty();
      }
    }
  }

  @Test
  void aLocalWarehouseIsWrittenByTheProcessorUnlessConfiguredOtherwise() throws Exception {
    TableIdentifier orders = TableIdentifier.of(DB, "orders");
    try (FloeProcess floe = new FloeProcess(dataDir).start();
        RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
      catalog.createNamespace(DB);
      Table table = catalog.createTable(orders, SCHEMA, PartitionSpec.unpartitioned());
      for (int i = 0; i < 3; i++) {
        table.newFastAppend().appendFile(DataFileEntries.of(table, "x")).commit();
      }

      assertThat(committed(orders))
          .hasSize(3)
          .allSatisfy(c -> assertThat(c.metadataLocation()).contains(c.commandId()));
    }
  }

  private List<TableCommittedEvent> committed(TableIdentifier table) {
    return ServerEvents.read(dataDir).stream()
        .filter(TableCommittedEvent.class::isInstance)
        .map(TableCommittedEvent.class::cast)
        .filter(e -> e.identifier().equals(table))
        .toList();
  }

  private static TableMetadata metadataOf(Table table) {
    return ((BaseTable) table).operations().current();
  }

  /**
   * The metadata files in the table's directory that neither are its current one nor in its log.
   */
  private static Set<String> unreferencedFiles(Table table) throws IOException {
    TableMetadata metadata = metadataOf(table);
    Set<String> referenced = new TreeSet<>();
    referenced.add(fileName(metadata.metadataFileLocation()));
    metadata.previousFiles().forEach(entry -> referenced.add(fileName(entry.file())));
    Path dir = Path.of(URI.create(table.location() + "/metadata"));
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(name -> name.endsWith(".metadata.json"))
          .filter(name -> !referenced.contains(name))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private static String fileName(String location) {
    return location.substring(location.lastIndexOf('/') + 1);
  }
}
