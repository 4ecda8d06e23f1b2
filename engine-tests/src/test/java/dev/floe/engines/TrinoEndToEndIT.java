package dev.floe.engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.infra.testing.FloeProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trino 476 (Maven Central's server tarball and Iceberg plugin, in a child JVM) against a Floe
 * server at its defaults, through a writer's token: a schema created without a location, a
 * partitioned table, INSERT, UPDATE, DELETE, MERGE, CTAS, {@code $snapshots}, time travel, a view,
 * a rename, a narrow principal's denial, drops; and every commit Trino made is an event by the
 * token's principal.
 */
class TrinoEndToEndIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String WRITER = "trino-etl";
  private static final String NARROW = "trino-peek";

  @TempDir static Path tempDir;
  private static FloeProcess floe;
  private static TrinoServer trino;

  @BeforeAll
  static void startFloeAndTrino() throws Exception {
    assumeTrue(
        TrinoServer.available(),
        "Trino "
            + TrinoServer.VERSION
            + " needs a Java 24+ JDK under /usr/lib/jvm (or $TRINO_JAVA_HOME) and the server"
            + " unpacked into target/trino by this module's build");
    floe =
        new FloeProcess(tempDir.resolve("floe").resolve("data"), Map.of("floe.auth", "token"))
            .copiedTo(tempDir.resolve("floe").resolve("server"))
            .start();
    String writer = principalWithToken(WRITER);
    AdminHttp.expect(
        floe,
        204,
        "PUT",
        "/management/v1/principals/" + WRITER + "/roles/default",
        "{\"role\":\"writer\"}");
    String narrow = principalWithToken(NARROW);
    trino =
        new TrinoServer(
                tempDir.resolve("trino"), Map.of("floe", catalog(writer), "peek", catalog(narrow)))
            .start();
  }

  @AfterAll
  static void stopTrinoAndFloe() throws InterruptedException {
    try {
      if (trino != null) {
        trino.close();
      }
    } finally {
      if (floe != null) {
        floe.close();
      }
    }
  }

  /** The Iceberg connector on Floe's REST catalog, with nothing but the URI, warehouse, token. */
  private static Map<String, String> catalog(String token) {
    Map<String, String> catalog = new TreeMap<>();
    catalog.put("connector.name", "iceberg");
    catalog.put("iceberg.catalog.type", "rest");
    catalog.put("iceberg.rest-catalog.uri", floe.uri());
    catalog.put("iceberg.rest-catalog.warehouse", "default");
    catalog.put("iceberg.rest-catalog.security", "OAUTH2");
    catalog.put("iceberg.rest-catalog.oauth2.token", token);
    // The warehouse is a local directory (file: locations).
    catalog.put("fs.native-local.enabled", "true");
    catalog.put("local.location", "/");
    return catalog;
  }

  @Test
  void trinoRunsATablesLifeOnFloeAndEveryCommitIsAnEventByItsPrincipal() throws Exception {
    try (Connection connection = trino.connect("analyst");
        Statement sql = connection.createStatement()) {
      // A schema without a location: Floe answers its storage area, so Trino's staged create works.
      sql.execute("CREATE SCHEMA floe.shop");
      sql.execute(
          "CREATE TABLE floe.shop.orders (id bigint, item varchar, qty integer, day date)"
              + " WITH (partitioning = ARRAY['day'])");
      sql.execute(
          "INSERT INTO floe.shop.orders VALUES (1, 'apple', 3, DATE '2026-12-01'),"
              + " (2, 'pear', 1, DATE '2026-12-02')");
      long inserted =
          single(
              sql,
              "SELECT snapshot_id FROM floe.shop.\"orders$snapshots\""
                  + " ORDER BY committed_at DESC LIMIT 1");

      sql.execute("UPDATE floe.shop.orders SET qty = qty + 1 WHERE id = 1");
      sql.execute("DELETE FROM floe.shop.orders WHERE id = 2");
      sql.execute(
          "MERGE INTO floe.shop.orders t USING (VALUES (1, 'apple', 10, DATE '2026-12-01'),"
              + " (3, 'plum', 5, DATE '2026-12-03')) AS s (id, item, qty, day) ON t.id = s.id"
              + " WHEN MATCHED THEN UPDATE SET qty = s.qty"
              + " WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.item, s.qty, s.day)");
      assertThat(rows(sql, "SELECT id, qty FROM floe.shop.orders ORDER BY id"))
          .containsExactly("1,10", "3,5");
      assertThat(rows(sql, "SELECT id FROM floe.shop.orders FOR VERSION AS OF " + inserted))
          .containsExactlyInAnyOrder("1", "2");
      assertThat(single(sql, "SELECT count(*) FROM floe.shop.\"orders$snapshots\""))
          .as("the insert, update, delete and merge each committed a snapshot")
          .isGreaterThanOrEqualTo(4);
      assertThat(rows(sql, "SELECT DISTINCT partition.day FROM floe.shop.\"orders$files\""))
          .as("files are written per day")
          .contains("2026-12-01", "2026-12-03");

      sql.execute(
          "CREATE TABLE floe.shop.big AS SELECT id, item FROM floe.shop.orders WHERE qty > 4");
      assertThat(rows(sql, "SELECT id FROM floe.shop.big ORDER BY id")).containsExactly("1", "3");
      sql.execute(
          "CREATE VIEW floe.shop.plums AS SELECT id FROM floe.shop.orders WHERE item = 'plum'");
      assertThat(rows(sql, "SELECT id FROM floe.shop.plums")).containsExactly("3");
      sql.execute("ALTER TABLE floe.shop.orders RENAME TO floe.shop.orders_2026");
      assertThat(rows(sql, "SHOW TABLES FROM floe.shop"))
          .containsExactlyInAnyOrder("big", "orders_2026", "plums");
      assertThat(single(sql, "SELECT count(*) FROM floe.shop.orders_2026")).isEqualTo(2);

      // A principal with no role and no grant: refused, and told so once.
      // (Trino's SHOW TABLES and CREATE SCHEMA ask HEAD …/namespaces/{ns} first: a HEAD answer
      // has no body, so those refusals read "Forbidden: Forbidden" in any client.)
      for (String refused :
          List.of(
              "SELECT * FROM peek.shop.orders_2026",
              "INSERT INTO peek.shop.orders_2026 VALUES (9, 'fig', 1, DATE '2026-12-09')")) {
        assertThatThrownBy(() -> rows(sql, refused))
            .as(refused)
            .isInstanceOf(SQLException.class)
            .satisfies(
                e ->
                    assertThat(causes(e))
                        .as(refused)
                        .contains("Forbidden", NARROW)
                        .doesNotContain("Forbidden: Forbidden"));
      }

      String uuid = tableUuid("shop", "orders_2026");
      List<JsonNode> updates = events("update-table", uuid);
      assertThat(updates)
          .as("every commit of the table is an event")
          .hasSizeGreaterThanOrEqualTo(4)
          .allSatisfy(e -> assertThat(e.path("actor").path("id").asText()).isEqualTo(WRITER));
      assertThat(events("create-table", null))
          .extracting(e -> e.path("actor").path("id").asText())
          .isNotEmpty()
          .containsOnly(WRITER);

      sql.execute("DROP VIEW floe.shop.plums");
      sql.execute("DROP TABLE floe.shop.big");
      sql.execute("DROP TABLE floe.shop.orders_2026");
      sql.execute("DROP SCHEMA floe.shop");
      assertThat(rows(sql, "SHOW SCHEMAS FROM floe")).doesNotContain("shop");
      assertThat(events("drop-namespace", null))
          .extracting(e -> e.path("actor").path("id").asText())
          .containsExactly(WRITER);
    }
  }

  /** The messages of an exception and of its causes. */
  private static String causes(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      text.append(cause).append('\n');
    }
    return text.toString();
  }

  private static long single(Statement sql, String query) throws SQLException {
    try (ResultSet result = sql.executeQuery(query)) {
      assertThat(result.next()).as(query).isTrue();
      return result.getLong(1);
    }
  }

  /** Each row as its columns joined with commas. */
  private static List<String> rows(Statement sql, String query) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet result = sql.executeQuery(query)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          row.add(String.valueOf(result.getObject(i)));
        }
        rows.add(String.join(",", row));
      }
    }
    return rows;
  }

  /** The events of one operation type in namespace shop, of one table when {@code uuid} is set. */
  private static List<JsonNode> events(String operation, String uuid) throws Exception {
    List<JsonNode> found = new ArrayList<>();
    String token = null;
    while (true) {
      ObjectNode query = JSON.createObjectNode();
      query.putArray("operation-types").add(operation);
      if (uuid != null) {
        query.putArray("catalog-objects-by-uuid").add(uuid);
      } else {
        query.putArray("catalog-objects-by-name").addArray().add("shop");
      }
      if (token != null) {
        query.put("continuation-token", token);
      }
      JsonNode page = AdminHttp.expect(floe, 200, "POST", "/v1/default/events", query.toString());
      page.path("events").forEach(found::add);
      if (page.path("events").isEmpty()) {
        return found;
      }
      token = page.path("continuation-token").asText();
    }
  }

  private static String tableUuid(String namespace, String table) throws Exception {
    return AdminHttp.expect(
            floe, 200, "GET", "/v1/default/namespaces/" + namespace + "/tables/" + table, null)
        .path("metadata")
        .path("table-uuid")
        .asText();
  }

  private static String principalWithToken(String name) throws Exception {
    AdminHttp.expect(floe, 201, "POST", "/management/v1/principals", "{\"name\":\"" + name + "\"}");
    return AdminHttp.expect(
            floe, 201, "POST", "/management/v1/principals/" + name + "/tokens", "{}")
        .path("token")
        .asText();
  }
}
