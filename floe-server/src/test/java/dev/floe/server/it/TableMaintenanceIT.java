package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.DataFileEntries;
import dev.floe.server.it.support.FileHashes;
import dev.floe.server.it.support.FloeCommand;
import dev.floe.server.it.support.PlannedTasks;
import dev.floe.server.it.support.RestClients;
import dev.floe.server.it.support.ServerEvents;
import dev.floe.server.it.support.SharedFloe;
import dev.floe.server.it.support.Waits;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Table maintenance on the management API, by a principal that manages the table. The orphan files
 * report: files under a table's location that its metadata no longer reaches and older than the
 * threshold are listed; files its metadata reaches, younger files and files beside the table are
 * not; nothing on disk changes. Snapshot expiry: Iceberg's rules on the table's properties, applied
 * as a commit through the log, the current snapshot's files unchanged.
 */
class TableMaintenanceIT {
  @RegisterExtension static final SharedFloe SHARED = SharedFloe.withTokens();

  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @Test
  void listsOldFilesTheMetadataDoesNotReachAndChangesNothing() throws Exception {
    FloeProcess floe = SHARED.process();
    String writer = AuthHttp.writerToken(floe, "orphans-writer");
    TableIdentifier name = TableIdentifier.of(Namespace.of("orphans"), "t");
    Path tableDir;
    Path referenced;
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      catalog.createNamespace(name.namespace());
      Table table = catalog.createTable(name, SCHEMA, PartitionSpec.unpartitioned());
      tableDir = Path.of(URI.create(table.location().replaceFirst("^file:/+", "file:///")));
      referenced = write(tableDir.resolve("data/kept.parquet"));
      DataFile kept =
          DataFiles.builder(table.spec())
              .withPath(table.location() + "/data/kept.parquet")
              .withFileSizeInBytes(Files.size(referenced))
              .withRecordCount(1)
              .build();
      table.newFastAppend().appendFile(kept).commit();
      DataFile dropped =
          DataFiles.builder(table.spec())
              .withPath(table.location() + "/data/dropped.parquet")
              .withFileSizeInBytes(5)
              .withRecordCount(1)
              .build();
      write(tableDir.resolve("data/dropped.parquet"));
      table.newFastAppend().appendFile(dropped).commit();
      // Still reached through the snapshot before the delete.
      table.newDelete().deleteFile(dropped).commit();
    }
    Path oldOrphan = write(tableDir.resolve("data/stray-old.parquet"));
    Path newOrphan = write(tableDir.resolve("data/stray-new.parquet"));
    Path beside = write(tableDir.getParent().resolve("beside-old.txt"));
    FileTime tenDaysAgo = FileTime.from(Instant.now().minus(10, ChronoUnit.DAYS));
    for (Path old : List.of(oldOrphan, beside, referenced)) {
      Files.setLastModifiedTime(old, tenDaysAgo);
    }
    Map<String, String> before = FileHashes.of(floe.warehouse());

    String route = "/management/v1/warehouses/default/namespaces/orphans/tables/t/orphan-files";
    JsonNode report =
        AuthHttp.expect(200, floe.uri(), "GET", route, floe.adminToken(), null).json();
    assertThat(locations(report)).containsExactly(oldOrphan.toString());
    assertThat(report.path("older-than").asText()).isEqualTo("PT72H");
    assertThat(report.path("truncated").asBoolean()).isFalse();
    assertThat(report.path("orphan-files").get(0).path("size-in-bytes").asLong()).isEqualTo(5);

    JsonNode all =
        AuthHttp.expect(200, floe.uri(), "GET", route + "?older-than=PT0S", floe.adminToken(), null)
            .json();
    assertThat(locations(all)).containsExactly(newOrphan.toString(), oldOrphan.toString());
    assertThat(all.path("listed").asLong()).isGreaterThan(6);

    // A writer of the table does not manage it; a bad threshold is the caller's mistake.
    assertThat(AuthHttp.send(floe.uri(), "GET", route, writer, null).status()).isEqualTo(403);
    JsonNode bad =
        AuthHttp.send(floe.uri(), "GET", route + "?older-than=3days", floe.adminToken(), null)
            .json();
    assertThat(bad.path("error").path("code").asInt()).isEqualTo(400);
    assertThat(
            AuthHttp.send(
                    floe.uri(),
                    "GET",
                    "/management/v1/warehouses/default/namespaces/orphans/tables/nope/orphan-files",
                    floe.adminToken(),
                    null)
                .status())
        .isEqualTo(404);

    // The command line: the same report as a table.
    assertThat(cli(floe, "orphans", "--warehouse", "default", "--table", "orphans.t"))
        .startsWith("LOCATION")
        .contains("stray-old.parquet")
        .doesNotContain("stray-new.parquet")
        .doesNotContain("kept.parquet");

    assertThat(FileHashes.of(floe.warehouse())).as("a report deletes nothing").isEqualTo(before);
  }

  @Test
  void expiresSnapshotsByTheTablesPropertiesThroughACommit() throws Exception {
    FloeProcess floe = SHARED.process();
    String writer = AuthHttp.writerToken(floe, "expiry-writer");
    TableIdentifier name = TableIdentifier.of(Namespace.of("expiring"), "t");
    List<Long> snapshots = new ArrayList<>();
    Map<String, PlannedTasks.Planned> current;
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      catalog.createNamespace(name.namespace());
      Table table = catalog.createTable(name, SCHEMA, PartitionSpec.unpartitioned());
      for (int i = 0; i < 5; i++) {
        table.newFastAppend().appendFile(DataFileEntries.of(table, "x")).commit();
        snapshots.add(table.currentSnapshot().snapshotId());
      }
      table
          .updateProperties()
          .set("history.expire.min-snapshots-to-keep", "2")
          .set("history.expire.max-snapshot-age-ms", "1")
          .commit();
      current = PlannedTasks.of(table.newScan());
    }
    Thread.sleep(10);
    String route =
        "/management/v1/warehouses/default/namespaces/expiring/tables/t/expire-snapshots";

    JsonNode dry =
        AuthHttp.expect(200, floe.uri(), "POST", route, floe.adminToken(), "{\"dry-run\":true}")
            .json();
    assertThat(ids(dry)).containsExactlyInAnyOrderElementsOf(snapshots.subList(0, 3));
    assertThat(AuthHttp.send(floe.uri(), "POST", route, writer, "{}").status()).isEqualTo(403);
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      assertThat(catalog.loadTable(name).snapshots()).as("a dry run changes nothing").hasSize(5);
    }

    JsonNode done = AuthHttp.expect(200, floe.uri(), "POST", route, floe.adminToken(), "{}").json();
    assertThat(ids(done)).containsExactlyInAnyOrderElementsOf(snapshots.subList(0, 3));
    assertThat(done.path("remaining-snapshots").asInt()).isEqualTo(2);
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      Table table = catalog.loadTable(name);
      List<Long> left = new ArrayList<>();
      table.snapshots().forEach(s -> left.add(s.snapshotId()));
      assertThat(left).containsExactlyElementsOf(snapshots.subList(3, 5));
      assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshots.get(4));
      assertThat(PlannedTasks.of(table.newScan())).isEqualTo(current);
    }
    // The run is recorded, and the table's status shows it to a reader of the table.
    String status = "/management/v1/warehouses/default/namespaces/expiring/tables/t/maintenance";
    Waits.until(
        () ->
            !AuthHttp.expect(200, floe.uri(), "GET", status, writer, null)
                .json()
                .path("last-run")
                .isNull(),
        "the expiry's run is recorded");
    JsonNode recorded = AuthHttp.expect(200, floe.uri(), "GET", status, writer, null).json();
    assertThat(recorded.path("last-run").path("trigger").asText()).isEqualTo("request");
    assertThat(recorded.path("last-run").path("principal").asText()).isEqualTo("admin");
    assertThat(recorded.path("last-run").path("expired-snapshots").asInt()).isEqualTo(3);
    assertThat(recorded.path("schedule").path("scheduled").asBoolean()).isFalse();
    assertThat(recorded.path("schedule").path("because").asText())
        .isEqualTo("floe.warehouse.default.maintenance=off");
    // The command line: nothing is left to expire.
    assertThat(cli(floe, "expire", "--warehouse", "default", "--table", "expiring.t", "--dry-run"))
        .isEqualTo(
            "would expire 0 snapshots of expiring.t; 2 remain; would delete 0 files (0 bytes)\n");
    // An ordinary commit, by the principal that asked.
    assertThat(ServerEvents.read(floe.dataDir()))
        .anyMatch(
            e ->
                e.type().equals("floe.table.committed")
                    && e.subject().equals("expiring.t")
                    && e.principal().equals("admin"));
  }

  @Test
  void anExpiryDoesNotReadManifestsOutsideTheTable() throws Exception {
    FloeProcess floe = SHARED.process();
    String writer = AuthHttp.writerToken(floe, "confined-writer");
    String otherList;
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      catalog.createNamespace(Namespace.of("confined"));
      catalog.createTable(TableIdentifier.of("confined", "a"), SCHEMA);
      Table b = catalog.createTable(TableIdentifier.of("confined", "b"), SCHEMA);
      b.newFastAppend().appendFile(DataFileEntries.of(b, "x")).commit();
      otherList = b.currentSnapshot().manifestListLocation();
    }
    // A writer of a names b's manifest list as a snapshot of its own.
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/default/namespaces/confined/tables/a",
        writer,
        "{\"requirements\":[],\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":"
            + "{\"snapshot-id\":4242,\"sequence-number\":1,\"timestamp-ms\":1000,"
            + "\"manifest-list\":\""
            + otherList
            + "\",\"summary\":{\"operation\":\"append\"},\"schema-id\":0}},"
            + "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"snapshot-id\":4242,"
            + "\"type\":\"branch\"}]}");
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      Table a = catalog.loadTable(TableIdentifier.of("confined", "a"));
      a.newFastAppend().appendFile(DataFileEntries.of(a, "y")).commit(); // 4242 may expire now
    }
    Map<String, String> before = FileHashes.of(floe.warehouse());
    String route =
        "/management/v1/warehouses/default/namespaces/confined/tables/a/expire-snapshots";
    String expire = "{\"retain-last\":1,\"older-than-ms\":" + System.currentTimeMillis() + "%s}";

    JsonNode refused =
        AuthHttp.send(floe.uri(), "POST", route, floe.adminToken(), expire.formatted("")).json();
    assertThat(refused.path("error").path("code").asInt()).isEqualTo(403);
    assertThat(refused.path("error").path("message").asText())
        .contains("snapshot 4242 names a manifest list or manifest outside the locations");
    assertThat(FileHashes.of(floe.warehouse())).as("nothing read for it changed").isEqualTo(before);
    JsonNode kept =
        AuthHttp.expect(
                200,
                floe.uri(),
                "POST",
                route,
                floe.adminToken(),
                expire.formatted(",\"clean-files\":false"))
            .json();
    assertThat(ids(kept)).containsExactly(4242L);
    assertThat(kept.path("deleted-files").asLong()).isZero();
  }

  /** {@code floe maintenance <args>} as the admin, which must succeed; what it printed. */
  private static String cli(FloeProcess floe, String... args) {
    List<String> all = new ArrayList<>(List.of("maintenance"));
    all.addAll(List.of(args));
    return FloeCommand.succeeds(floe.uri(), floe.adminToken(), all.toArray(String[]::new));
  }

  private static List<Long> ids(JsonNode answer) {
    List<Long> ids = new ArrayList<>();
    answer.path("expired-snapshot-ids").forEach(id -> ids.add(id.asLong()));
    return ids;
  }

  private static List<String> locations(JsonNode report) {
    List<String> locations = new ArrayList<>();
    report
        .path("orphan-files")
        .forEach(f -> locations.add(Path.of(URI.create(f.path("location").asText())).toString()));
    return locations;
  }

  private static Path write(Path file) throws Exception {
    Files.createDirectories(file.getParent());
    return Files.writeString(file, "bytes");
  }
}
