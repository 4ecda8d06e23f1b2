package dev.floe.engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.infra.testing.ServerMetrics;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark 3.5 with Iceberg's runtime, configured exactly as the README tells users, drives one table
 * through its life on a real Floe server: DDL, appends, schema evolution, row-level UPDATE and
 * MERGE, time travel, rename and drop, and a dropped table restored through the management API.
 * Every step checks what Spark reads back, not only that the statement ran. One Spark session
 * serves the class: Spark starts slowly.
 */
class SparkEndToEndIT {
  private static final String DELETED = "/management/v1/warehouses/default/deleted";

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
        SparkSessions.withCatalog("floe-engine-tests", tempDir, "floe", floe, "default")
            .config("spark.sql.defaultCatalog", "floe")
            // The same catalog as a reader that has the catalog plan its scans.
            .config("spark.sql.catalog.planned", "org.apache.iceberg.spark.SparkCatalog")
            .config("spark.sql.catalog.planned.type", "rest")
            .config("spark.sql.catalog.planned.uri", floe.uri())
            .config("spark.sql.catalog.planned.warehouse", "default")
            .config("spark.sql.catalog.planned.token", readerToken())
            .config("spark.sql.catalog.planned.scan-planning-mode", "server")
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
  void sparkCreatesWritesEvolvesTimeTravelsRenamesAndDropsATableAndAView() {
    createNamespaceAndPartitionedTable();
    long firstSnapshot = appendRowsAndReadThemBack();
    addColumnAndAppendRowsWithIt();
    updateRowsInPlace();
    mergeChangesIn();
    assertEachSnapshotDescendsFromThePreviousOne(firstSnapshot);
    timeTravelToFirstSnapshot(firstSnapshot);
    renameTable();
    createSelectAndDropAView();
    dropTableAndNamespace();
  }

  private void createNamespaceAndPartitionedTable() {
    sql("CREATE NAMESPACE floe.db");
    sql(
        "CREATE TABLE floe.db.t (id bigint, category string, amount double)"
            + " USING iceberg PARTITIONED BY (category)");

    assertThat(rows("SHOW NAMESPACES IN floe")).containsExactly(row("db"));
    assertThat(rows("SHOW TABLES IN floe.db")).containsExactly(row("db", "t", false));
    assertThat(spark.table("floe.db.t").schema().fieldNames())
        .containsExactly("id", "category", "amount");
    assertThat(rows("SELECT * FROM floe.db.t")).isEmpty();
  }

  /** Returns the id of the snapshot the append made. */
  private long appendRowsAndReadThemBack() {
    sql("INSERT INTO floe.db.t VALUES (1, 'a', 10.0), (2, 'b', 20.0), (3, 'a', 30.0)");

    assertThat(rows("SELECT * FROM floe.db.t ORDER BY id"))
        .containsExactly(row(1L, "a", 10.0), row(2L, "b", 20.0), row(3L, "a", 30.0));
    assertThat(rows("SELECT partition.category, record_count FROM floe.db.t.partitions ORDER BY 1"))
        .containsExactly(row("a", 2L), row("b", 1L));
    assertDataFilesAreInFloesWarehouse();

    List<Row> snapshots = rows("SELECT snapshot_id, parent_id FROM floe.db.t.snapshots");
    assertThat(snapshots).hasSize(1);
    assertThat(snapshots.get(0).isNullAt(1)).as("first snapshot has no parent").isTrue();
    return snapshots.get(0).getLong(0);
  }

  /** Spark wrote through HadoopFileIO into the location Floe chose for the table. */
  private void assertDataFilesAreInFloesWarehouse() {
    Path warehouse = floe.warehouse().toAbsolutePath().normalize();
    List<Path> dataFiles =
        rows("SELECT file_path FROM floe.db.t.files").stream()
            .map(r -> Path.of(URI.create(r.getString(0))))
            .toList();
    assertThat(dataFiles)
        .isNotEmpty()
        .allSatisfy(file -> assertThat(file).startsWith(warehouse).isRegularFile());
  }

  private void addColumnAndAppendRowsWithIt() {
    sql("ALTER TABLE floe.db.t ADD COLUMN note string");
    sql("INSERT INTO floe.db.t VALUES (4, 'b', 40.0, 'late'), (5, 'c', 50.0, 'late')");

    assertThat(rows("SELECT * FROM floe.db.t ORDER BY id"))
        .containsExactly(
            row(1L, "a", 10.0, null),
            row(2L, "b", 20.0, null),
            row(3L, "a", 30.0, null),
            row(4L, "b", 40.0, "late"),
            row(5L, "c", 50.0, "late"));
  }

  private void updateRowsInPlace() {
    sql("UPDATE floe.db.t SET amount = amount + 1, note = 'updated' WHERE category = 'a'");

    assertThat(rows("SELECT * FROM floe.db.t ORDER BY id"))
        .containsExactly(
            row(1L, "a", 11.0, "updated"),
            row(2L, "b", 20.0, null),
            row(3L, "a", 31.0, "updated"),
            row(4L, "b", 40.0, "late"),
            row(5L, "c", 50.0, "late"));
  }

  private void mergeChangesIn() {
    sql(
        "MERGE INTO floe.db.t t USING (SELECT * FROM VALUES"
            + " (2L, 'b', 25.0D, 'merged'), (5L, 'c', 0.0D, 'gone'), (6L, 'c', 60.0D, 'merged')"
            + " AS s(id, category, amount, note)) s"
            + " ON t.id = s.id"
            + " WHEN MATCHED AND s.note = 'gone' THEN DELETE"
            + " WHEN MATCHED THEN UPDATE SET t.amount = s.amount, t.note = s.note"
            + " WHEN NOT MATCHED THEN INSERT *");

    assertThat(rows("SELECT * FROM floe.db.t ORDER BY id"))
        .containsExactly(
            row(1L, "a", 11.0, "updated"),
            row(2L, "b", 25.0, "merged"),
            row(3L, "a", 31.0, "updated"),
            row(4L, "b", 40.0, "late"),
            row(6L, "c", 60.0, "merged"));
  }

  /** Two appends, the UPDATE and the MERGE: four snapshots in one unbroken line. */
  private void assertEachSnapshotDescendsFromThePreviousOne(long firstSnapshot) {
    List<Row> snapshots =
        rows("SELECT snapshot_id, parent_id FROM floe.db.t.snapshots ORDER BY committed_at");
    assertThat(snapshots).hasSize(4);
    assertThat(snapshots.get(0).getLong(0)).isEqualTo(firstSnapshot);
    for (int i = 1; i < snapshots.size(); i++) {
      assertThat(snapshots.get(i).getLong(1))
          .as("parent of snapshot %d", i)
          .isEqualTo(snapshots.get(i - 1).getLong(0));
    }
    assertThat(rows("SELECT snapshot_id FROM floe.db.t.history WHERE is_current_ancestor"))
        .hasSize(4);
  }

  private void timeTravelToFirstSnapshot(long firstSnapshot) {
    assertThat(
            rows(
                "SELECT id, category, amount FROM floe.db.t VERSION AS OF "
                    + firstSnapshot
                    + " ORDER BY id"))
        .containsExactly(row(1L, "a", 10.0), row(2L, "b", 20.0), row(3L, "a", 30.0));
  }

  private void renameTable() {
    // Spark resolves the new name inside the table's catalog: "floe.db.t2" would name table t2 in
    // namespace floe.db, which does not exist (Floe rightly answers NoSuchNamespaceException).
    sql("ALTER TABLE floe.db.t RENAME TO db.t2");

    assertThat(rows("SELECT * FROM floe.db.t2 ORDER BY id"))
        .containsExactly(
            row(1L, "a", 11.0, "updated"),
            row(2L, "b", 25.0, "merged"),
            row(3L, "a", 31.0, "updated"),
            row(4L, "b", 40.0, "late"),
            row(6L, "c", 60.0, "merged"));
    assertThat(rows("SHOW TABLES IN floe.db")).containsExactly(row("db", "t2", false));
  }

  /** A view stored in Floe: Spark writes its SQL, reads through it, lists it and drops it. */
  private void createSelectAndDropAView() {
    sql("CREATE VIEW floe.db.big_amounts AS SELECT id, amount FROM floe.db.t2 WHERE amount > 30");

    assertThat(rows("SELECT * FROM floe.db.big_amounts ORDER BY id"))
        .containsExactly(row(3L, 31.0), row(4L, 40.0), row(6L, 60.0));
    assertThat(rows("SHOW VIEWS IN floe.db"))
        .extracting(r -> r.getString(1))
        .containsExactly("big_amounts");

    sql("DROP VIEW floe.db.big_amounts");
    assertThat(rows("SHOW VIEWS IN floe.db")).isEmpty();
  }

  private void dropTableAndNamespace() {
    sql("DROP TABLE floe.db.t2");
    assertThat(rows("SHOW TABLES IN floe.db")).isEmpty();

    sql("DROP NAMESPACE floe.db");
    assertThat(rows("SHOW NAMESPACES IN floe")).isEmpty();
  }

  /**
   * Spark's DROP TABLE (no PURGE) only drops the catalog entry: Floe keeps the table for the
   * recovery period, and a restore through the management API gives Spark back the same table with
   * the same rows.
   */
  @Test
  void aTableDroppedBySparkIsRestoredWithItsRows() throws Exception {
    sql("CREATE NAMESPACE floe.undo");
    try {
      sql("CREATE TABLE floe.undo.orders (id bigint, item string) USING iceberg");
      sql("INSERT INTO floe.undo.orders VALUES (1, 'a'), (2, 'b')");
      sql("INSERT INTO floe.undo.orders VALUES (3, 'c')");
      assertThat(rows("SELECT * FROM floe.undo.orders ORDER BY id"))
          .containsExactly(row(1L, "a"), row(2L, "b"), row(3L, "c"));
      List<Row> snapshots = rows("SELECT snapshot_id FROM floe.undo.orders.snapshots");
      String uuid = tableUuid("orders");

      sql("DROP TABLE floe.undo.orders");

      assertThat(rows("SHOW TABLES IN floe.undo")).isEmpty();
      assertThatThrownBy(() -> rows("SELECT * FROM floe.undo.orders"))
          .isInstanceOf(AnalysisException.class);
      JsonNode kept = kept("orders");
      assertThat(kept.path("uuid").asText()).isEqualTo(uuid);
      assertThat(kept.path("purge-requested").asBoolean()).isFalse();

      JsonNode restored = restore("orders");

      assertThat(restored.path("uuid").asText()).isEqualTo(uuid);
      assertThat(tableUuid("orders")).isEqualTo(uuid);
      assertThat(rows("SHOW TABLES IN floe.undo")).containsExactly(row("undo", "orders", false));
      assertThat(rows("SELECT * FROM floe.undo.orders ORDER BY id"))
          .containsExactly(row(1L, "a"), row(2L, "b"), row(3L, "c"));
      assertThat(rows("SELECT snapshot_id FROM floe.undo.orders.snapshots"))
          .containsExactlyInAnyOrderElementsOf(snapshots);
      sql("INSERT INTO floe.undo.orders VALUES (4, 'd')");
      assertThat(rows("SELECT count(*) FROM floe.undo.orders")).containsExactly(row(4L));
    } finally {
      sql("DROP TABLE IF EXISTS floe.undo.orders");
      sql("DROP NAMESPACE IF EXISTS floe.undo");
    }
  }

  /**
   * At the defaults (dropped entities kept for seven days), dropping a table and its namespace and
   * creating both again under the same names works as in any catalog; the first table stays kept
   * and is restored into the namespace created again, under another name, with its rows.
   */
  @Test
  void aNamespaceDroppedAndCreatedAgainTakesTheFirstTableBack() throws Exception {
    try {
      sql("CREATE NAMESPACE floe.again");
      sql("CREATE TABLE floe.again.items (id bigint) USING iceberg");
      sql("INSERT INTO floe.again.items VALUES (1), (2)");
      String first = tableUuid("again", "items");

      sql("DROP TABLE floe.again.items");
      sql("DROP NAMESPACE floe.again");
      sql("CREATE NAMESPACE floe.again");
      sql("CREATE TABLE floe.again.items (id bigint, note string) USING iceberg");
      sql("INSERT INTO floe.again.items VALUES (10, 'new')");

      String second = tableUuid("again", "items");
      assertThat(second).isNotEqualTo(first);
      assertThat(kept("again", "items").path("uuid").asText()).isEqualTo(first);
      JsonNode restored =
          http(
              "POST",
              DELETED + "/restore",
              "{\"kind\":\"table\",\"namespace\":[\"again\"],\"name\":\"items\",\"uuid\":\""
                  + first
                  + "\",\"as\":\"items_before\"}");
      assertThat(restored.path("uuid").asText()).isEqualTo(first);
      assertThat(rows("SELECT id FROM floe.again.items_before ORDER BY id"))
          .containsExactly(row(1L), row(2L));
      assertThat(rows("SELECT id, note FROM floe.again.items")).containsExactly(row(10L, "new"));
    } finally {
      sql("DROP TABLE IF EXISTS floe.again.items_before");
      sql("DROP TABLE IF EXISTS floe.again.items");
      sql("DROP NAMESPACE IF EXISTS floe.again");
    }
  }

  /**
   * DROP TABLE … PURGE in Spark (Iceberg's SparkCatalog) asks Floe to drop the table without purge,
   * then deletes every file the table reaches through its own FileIO. Floe keeps the entry,
   * restorable, but cannot keep files an engine deletes itself (docs/operations.md says so).
   */
  @Test
  void sparkDeletesTheFilesOfATableItDropsWithPurgeItself() throws Exception {
    sql("CREATE NAMESPACE floe.purging");
    try {
      sql("CREATE TABLE floe.purging.events (id bigint) USING iceberg");
      sql("INSERT INTO floe.purging.events VALUES (1), (2)");
      List<Path> dataFiles =
          rows("SELECT file_path FROM floe.purging.events.files").stream()
              .map(r -> Path.of(URI.create(r.getString(0))))
              .toList();
      assertThat(dataFiles).isNotEmpty().allSatisfy(file -> assertThat(file).exists());
      String uuid = tableUuid("purging", "events");

      sql("DROP TABLE floe.purging.events PURGE");

      assertThat(rows("SHOW TABLES IN floe.purging")).isEmpty();
      JsonNode kept = kept("purging", "events");
      assertThat(kept.path("uuid").asText()).isEqualTo(uuid);
      assertThat(kept.path("purge-requested").asBoolean()).isFalse();
      assertThat(dataFiles).allSatisfy(file -> assertThat(file).doesNotExist());
    } finally {
      sql("DROP TABLE IF EXISTS floe.purging.events");
      sql("DROP NAMESPACE IF EXISTS floe.purging");
    }
  }

  private static String tableUuid(String table) throws Exception {
    return tableUuid("undo", table);
  }

  private static String tableUuid(String namespace, String table) throws Exception {
    return http("GET", "/v1/default/namespaces/" + namespace + "/tables/" + table, null)
        .path("metadata")
        .path("table-uuid")
        .asText();
  }

  private static JsonNode kept(String table) throws Exception {
    return kept("undo", table);
  }

  /** The one kept (dropped, restorable) table of that name in the namespace. */
  private static JsonNode kept(String namespace, String table) throws Exception {
    List<JsonNode> found = new ArrayList<>();
    http("GET", DELETED + "?namespace=" + namespace, null)
        .path("deleted")
        .forEach(
            e -> {
              if (e.path("name").asText().equals(table)) {
                found.add(e);
              }
            });
    assertThat(found).hasSize(1);
    return found.get(0);
  }

  private static JsonNode restore(String table) throws Exception {
    return restore("undo", table);
  }

  private static JsonNode restore(String namespace, String table) throws Exception {
    return http(
        "POST",
        DELETED + "/restore",
        "{\"kind\":\"table\",\"namespace\":[\"" + namespace + "\"],\"name\":\"" + table + "\"}");
  }

  @Test
  void sparkReadsTheSameRowsThroughServerSidePlanning() throws Exception {
    sql("CREATE NAMESPACE floe.planned_db");
    sql(
        "CREATE TABLE floe.planned_db.events (id BIGINT, category STRING) USING iceberg"
            + " PARTITIONED BY (category) TBLPROPERTIES ('format-version'='2',"
            + " 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read')");
    sql("INSERT INTO floe.planned_db.events VALUES (1, 'a'), (2, 'a'), (3, 'b'), (4, 'c')");
    sql("INSERT INTO floe.planned_db.events VALUES (5, 'b'), (6, 'c')");
    sql("DELETE FROM floe.planned_db.events WHERE id = 2");
    sql("UPDATE floe.planned_db.events SET category = 'z' WHERE id = 5");

    long plansBefore = ServerMetrics.answered(floe, "tables/{table}/plan", 200);
    for (String query :
        List.of(
            "SELECT * FROM %s ORDER BY id",
            "SELECT id FROM %s WHERE category = 'b' ORDER BY id",
            "SELECT category, count(*) FROM %s WHERE id > 2 GROUP BY category ORDER BY category")) {
      assertThat(rows(String.format(query, "planned.planned_db.events")))
          .as(query)
          .isEqualTo(rows(String.format(query, "floe.planned_db.events")));
    }
    assertThat(rows("SELECT * FROM planned.planned_db.events ORDER BY id"))
        .containsExactly(row(1L, "a"), row(3L, "b"), row(4L, "c"), row(5L, "z"), row(6L, "c"));
    assertThat(ServerMetrics.answered(floe, "tables/{table}/plan", 200) - plansBefore)
        .isGreaterThanOrEqualTo(3);
  }

  /** A principal with the {@code reader} role on {@code default}, and its token. */
  private static String readerToken() {
    try {
      AdminHttp.expect(floe, 201, "POST", "/management/v1/principals", "{\"name\":\"analyst\"}");
      AdminHttp.expect(
          floe,
          204,
          "PUT",
          "/management/v1/principals/analyst/roles/default",
          "{\"role\":\"reader\"}");
      return AdminHttp.expect(floe, 201, "POST", "/management/v1/principals/analyst/tokens", "{}")
          .path("token")
          .asText();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A request to Floe with the admin token, which must answer 200; its JSON. */
  private static JsonNode http(String method, String path, String body) throws Exception {
    return AdminHttp.expect(floe, 200, method, path, body);
  }

  private static void sql(String statement) {
    spark.sql(statement).collectAsList();
  }

  private static List<Row> rows(String query) {
    return spark.sql(query).collectAsList();
  }

  private static Row row(Object... values) {
    return RowFactory.create(values);
  }
}
