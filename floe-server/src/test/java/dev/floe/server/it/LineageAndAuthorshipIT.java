package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.DataFileEntries;
import dev.floe.server.it.support.RestClients;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots carry who committed them (stamped by the catalog, whatever the client claimed) and
 * where their data came from ({@code floe.source.*}, passed through and indexed by lineage).
 */
class LineageAndAuthorshipIT {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final TableIdentifier DAILY =
      TableIdentifier.of(Namespace.of("mart", "sales"), "daily");

  @TempDir Path dataDir;

  @Test
  void stampsAuthorshipAndIndexesLineagePerSnapshot() throws Exception {
    try (FloeProcess floe = new FloeProcess(dataDir).start();
        RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
      catalog.createNamespace(Namespace.of("mart"));
      catalog.createNamespace(DAILY.namespace());
      Table table = catalog.createTable(DAILY, SCHEMA);
      table
          .newFastAppend()
          .appendFile(DataFileEntries.of(table, "x"))
          .set("floe.source.repo", "git@example.org:etl.git")
          .set("floe.source.ref", "refs/heads/main")
          .set("floe.source.snapshot-id", "8812")
          .set("floe.source.query", "SELECT * FROM raw.sales")
          .set("floe.author-name", "mallory")
          .commit();
      table.newFastAppend().appendFile(DataFileEntries.of(table, "y")).commit();

      Snapshot first = catalog.loadTable(DAILY).snapshots().iterator().next();
      assertThat(first.summary())
          .containsEntry("floe.author-name", "anonymous")
          .containsEntry("floe.author-id", "anonymous")
          .containsEntry("floe.source.repo", "git@example.org:etl.git")
          .containsEntry("floe.source.query", "SELECT * FROM raw.sales");

      JsonNode lineage = await(floe.uri() + "/management/v1/lineage/tables/mart%1Fsales/daily");
      assertThat(lineage.path("snapshots")).hasSize(1);
      JsonNode snapshot = lineage.path("snapshots").get(0);
      assertThat(snapshot.path("snapshot-id").asLong()).isEqualTo(first.snapshotId());
      assertThat(snapshot.path("sources").path("repo").asText())
          .isEqualTo("git@example.org:etl.git");
      assertThat(snapshot.path("sources").path("ref").asText()).isEqualTo("refs/heads/main");
      assertThat(snapshot.path("sources").path("snapshot-id").asText()).isEqualTo("8812");

      JsonNode derived =
          await(floe.uri() + "/management/v1/lineage/sources?repo=git%40example.org%3Aetl.git");
      assertThat(derived.path("tables")).hasSize(1);
      assertThat(derived.path("tables").get(0).path("table").path("name").asText())
          .isEqualTo("daily");

      // A rename carries the lineage to the new name.
      TableIdentifier renamed = TableIdentifier.of(DAILY.namespace(), "daily_v2");
      catalog.renameTable(DAILY, renamed);
      JsonNode moved = await(floe.uri() + "/management/v1/lineage/tables/mart%1Fsales/daily_v2");
      assertThat(moved.path("snapshots")).hasSize(1);
    }
  }

  /** The lineage projection follows the log: poll until it has caught up. */
  private static JsonNode await(String url) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.currentTimeMillis() + 20_000;
    while (true) {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(url)).build(),
              HttpResponse.BodyHandlers.ofString());
      JsonNode body = new ObjectMapper().readTree(response.body());
      boolean ready =
          response.statusCode() == 200
              && (body.path("snapshots").size() > 0 || body.path("tables").size() > 0);
      if (ready || System.currentTimeMillis() > deadline) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return body;
      }
      Thread.sleep(100);
    }
  }
}
