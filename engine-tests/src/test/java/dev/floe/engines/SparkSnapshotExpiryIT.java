package dev.floe.engines;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.testing.FloeProcess;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Floe's snapshot expiry against Iceberg's own {@code expire_snapshots} procedure in Spark 3.5, on
 * a table Spark wrote with appends, partition overwrites, a copy-on-write DELETE and a
 * merge-on-read UPDATE. Floe's dry run names the files it would delete; Spark's procedure then
 * expires the same snapshots through Floe and deletes files with its own implementation (Spark jobs
 * over the table's metadata); the two sets must be equal, and every remaining snapshot must read
 * the same rows as before. That Floe's real run deletes what its dry run names is shown by {@code
 * SnapshotExpiryFilesIT}.
 */
class SparkSnapshotExpiryIT {
  @TempDir static Path tempDir;
  private static FloeProcess floe;
  private static SparkSession spark;

  @BeforeAll
  static void startFloeAndSpark() {
    floe =
        new FloeProcess(tempDir.resolve("floe").resolve("data"), Map.of("floe.auth", "token"))
            .copiedTo(tempDir.resolve("floe").resolve("server"))
            .start();
    spark =
        SparkSessions.withCatalog("floe-expiry-tests", tempDir, "floe", floe, "default")
            .config("spark.sql.sources.partitionOverwriteMode", "dynamic")
            .getOrCreate();
  }

  @AfterAll
  static void stopSparkAndFloe() throws InterruptedException {
    try {
      if (spark != null) {
        spark.stop();
      }
    } finally {
      if (floe != null) {
        floe.close();
      }
    }
  }

  @Test
  void floesExpiryNamesExactlyTheFilesSparksExpireSnapshotsDeletes() throws Exception {
    sql("CREATE NAMESPACE floe.maint");
    sql(
        "CREATE TABLE floe.maint.t (id bigint, category string, amount double) USING iceberg"
            + " PARTITIONED BY (category) TBLPROPERTIES ('write.delete.mode'='copy-on-write',"
            + " 'write.update.mode'='merge-on-read', 'commit.manifest.min-count-to-merge'='3')");
    for (int i = 0; i < 6; i++) {
      sql(
          "INSERT INTO floe.maint.t VALUES (%d, 'a', %d.0), (%d, 'b', %d.0), (%d, 'c', 1.0)"
              .formatted(10 * i + 1, i, 10 * i + 2, i, 10 * i + 3));
    }
    sql("INSERT OVERWRITE floe.maint.t VALUES (100, 'a', 5.0), (101, 'a', 6.0)");
    sql("DELETE FROM floe.maint.t WHERE id % 3 = 0");
    sql("UPDATE floe.maint.t SET amount = amount + 1 WHERE category = 'b'");
    sql("INSERT OVERWRITE floe.maint.t VALUES (200, 'c', 7.0)");
    sql("INSERT INTO floe.maint.t VALUES (300, 'd', 8.0)");

    List<Long> snapshots =
        rows("SELECT snapshot_id FROM floe.maint.t.snapshots ORDER BY committed_at").stream()
            .map(r -> r.getLong(0))
            .toList();
    assertThat(snapshots).hasSize(11);
    Map<Long, List<Row>> rowsAt = new HashMap<>();
    for (long id : snapshots) {
      rowsAt.put(id, rows("SELECT * FROM floe.maint.t VERSION AS OF " + id + " ORDER BY id"));
    }
    Path table =
        Path.of(
                URI.create(
                    rows("SELECT file FROM floe.maint.t.metadata_log_entries").get(0).getString(0)))
            .getParent()
            .getParent();
    Set<String> before = files(table);
    long olderThan = System.currentTimeMillis();
    Thread.sleep(5);

    JsonNode dry =
        AdminHttp.expect(
            floe,
            200,
            "POST",
            "/management/v1/warehouses/default/namespaces/maint/tables/t/expire-snapshots",
            "{\"dry-run\":true,\"older-than-ms\":%d,\"retain-last\":2}".formatted(olderThan));
    assertThat(files(table)).as("a dry run deletes nothing").isEqualTo(before);

    String expire =
        "CALL floe.system.expire_snapshots(table => 'maint.t', older_than => TIMESTAMP '%s',"
            + " retain_last => 2)";
    Row counts = rows(expire.formatted(new Timestamp(olderThan))).get(0);
    Set<String> deletedBySpark = new TreeSet<>(before);
    deletedBySpark.removeAll(files(table));

    Set<String> namedByFloe = new TreeSet<>();
    dry.path("files")
        .forEach(f -> namedByFloe.add(Path.of(URI.create(spelled(f.asText()))).toString()));
    assertThat(namedByFloe)
        .as("Floe's dry run against Spark's deletions")
        .isEqualTo(deletedBySpark);
    long sparkCount = 0;
    for (int i = 0; i < counts.length(); i++) {
      sparkCount += counts.getLong(i);
    }
    assertThat(sparkCount).as("the procedure's own counts").isEqualTo(deletedBySpark.size());
    assertThat(dry.path("deleted-files").asLong()).isEqualTo(deletedBySpark.size());
    assertThat(deletedBySpark).as("files deleted").hasSizeGreaterThan(10);

    List<Long> remaining =
        rows("SELECT snapshot_id FROM floe.maint.t.snapshots").stream()
            .map(r -> r.getLong(0))
            .toList();
    assertThat(remaining).containsExactlyInAnyOrderElementsOf(snapshots.subList(9, 11));
    Set<Long> expiredByFloe = new TreeSet<>();
    dry.path("expired-snapshot-ids").forEach(id -> expiredByFloe.add(id.asLong()));
    assertThat(expiredByFloe).containsExactlyInAnyOrderElementsOf(snapshots.subList(0, 9));
    for (long id : remaining) {
      assertThat(rows("SELECT * FROM floe.maint.t VERSION AS OF " + id + " ORDER BY id"))
          .as("rows at snapshot %d", id)
          .isEqualTo(rowsAt.get(id));
    }
  }

  /** The table's files, but metadata JSON files and Hadoop's checksums, as absolute paths. */
  private static Set<String> files(Path table) throws IOException {
    try (Stream<Path> all = Files.walk(table)) {
      return all.filter(Files::isRegularFile)
          .filter(f -> !f.getFileName().toString().endsWith(".crc"))
          .filter(f -> !f.getFileName().toString().endsWith(".metadata.json"))
          .map(Path::toString)
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  /** {@code file:/x} and {@code file:///x} both occur; as a URI with an empty authority. */
  private static String spelled(String location) {
    return location.replaceFirst("^file:/+", "file:///");
  }

  private static void sql(String statement) {
    spark.sql(statement).collectAsList();
  }

  private static List<Row> rows(String query) {
    return spark.sql(query).collectAsList();
  }
}
