package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.DataFileEntries;
import dev.floe.server.it.support.RestClients;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Table behaviour beyond Iceberg's suite: every table has its own location inside the warehouse, a
 * purge removes only a dropped table's files and only later, and format versions 1 to 3 work.
 */
class TableSurfaceIT {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Namespace NS = Namespace.of("loc");

  @TempDir static Path dataDir;
  private static FloeProcess floe;
  private static RESTCatalog catalog;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    // Drops are final at once: what is tested is the purge itself (RecoverableDropIT: purges after
    // a recovery period).
    floe =
        new FloeProcess(
                dataDir,
                Map.of(
                    "floe.purge-interval",
                    "PT1S",
                    "floe.warehouse.default.recovery-period",
                    "PT0S"))
            .start();
    catalog = RestClients.connect(floe.uri(), Map.of());
    catalog.createNamespace(NS);
  }

  @AfterAll
  static void stop() throws Exception {
    catalog.close();
    floe.close();
  }

  /**
   * The REST spec's prefix is optional: a client that ignores the config's (iceberg-js with no
   * warehouse) calls {@code /v1/namespaces…}, served as the default warehouse.
   */
  @Test
  void pathsWithoutAPrefixServeTheDefaultWarehouse() {
    catalog.createTable(TableIdentifier.of(NS, "unprefixed"), SCHEMA);
    AuthHttp.Response namespaces = AuthHttp.send(floe.uri(), "GET", "/v1/namespaces", null, null);
    AuthHttp.Response table =
        AuthHttp.send(floe.uri(), "GET", "/v1/namespaces/loc/tables/unprefixed", null, null);
    AuthHttp.Response missing =
        AuthHttp.send(floe.uri(), "GET", "/v1/namespaces/loc/tables/absent", null, null);

    assertThat(namespaces.status()).as(namespaces.body()).isEqualTo(200);
    assertThat(namespaces.json().path("namespaces").toString()).contains("[\"loc\"]");
    assertThat(table.status()).isEqualTo(200);
    assertThat(table.json().path("metadata").path("location").asText())
        .isEqualTo(catalog.loadTable(TableIdentifier.of(NS, "unprefixed")).location());
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json().path("error").path("type").asText())
        .isEqualTo("NoSuchTableException");
  }

  @Test
  void recreatedTableNeverReusesTheDroppedTablesLocation() {
    TableIdentifier id = TableIdentifier.of(NS, "again");
    String first = catalog.createTable(id, SCHEMA).location();
    catalog.dropTable(id, false);
    String second = catalog.createTable(id, SCHEMA).location();

    assertThat(second).isNotEqualTo(first);
    assertThat(first).startsWith(floe.warehouseRoot() + "/");
    assertThat(second).startsWith(floe.warehouseRoot() + "/");
  }

  @Test
  void requestedLocationOutsideTheWarehouseIsRefused() {
    TableIdentifier id = TableIdentifier.of(NS, "outside");
    assertThatThrownBy(
            () ->
                catalog
                    .buildTable(id, SCHEMA)
                    .withLocation("file:///tmp/not-the-warehouse/t")
                    .create())
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("outside the namespace's storage area");
    assertThat(catalog.tableExists(id)).isFalse();
  }

  @Test
  void requestedLocationOverlappingAnotherTableIsRefused() {
    String area = floe.warehouseRoot() + "/" + NS.level(0);
    String base = area + "/custom/overlap";
    catalog.buildTable(TableIdentifier.of(NS, "owner"), SCHEMA).withLocation(base).create();

    for (String requested : new String[] {base, base + "/inner", area + "/custom"}) {
      TableIdentifier id = TableIdentifier.of(NS, "intruder");
      assertThatThrownBy(() -> catalog.buildTable(id, SCHEMA).withLocation(requested).create())
          .as(requested)
          .isInstanceOf(BadRequestException.class)
          .hasMessageContaining("overlaps");
      assertThat(catalog.tableExists(id)).isFalse();
    }
    Table sibling =
        catalog
            .buildTable(TableIdentifier.of(NS, "sibling"), SCHEMA)
            .withLocation(base + "2")
            .create();
    assertThat(sibling.location()).isEqualTo(base + "2");
  }

  @Test
  void purgeRemovesOnlyTheDroppedTablesFilesAndThenFreesItsLocation() throws Exception {
    Table doomed =
        catalog.createTable(
            TableIdentifier.of(NS, "doomed"),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            new HashMap<>());
    Table survivor =
        catalog.createTable(
            TableIdentifier.of(NS, "survivor"),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            new HashMap<>());
    Path doomedData = write(doomed.location() + "/data/part-0.parquet");
    Path survivorData = write(survivor.location() + "/data/part-0.parquet");

    assertThat(catalog.dropTable(TableIdentifier.of(NS, "doomed"), true)).isTrue();
    assertThat(catalog.tableExists(TableIdentifier.of(NS, "doomed")))
        .as("the entry goes at once")
        .isFalse();

    long deadline = System.currentTimeMillis() + 30_000;
    while (Files.exists(doomedData) && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
    }
    assertThat(doomedData).doesNotExist();
    assertThat(Paths.get(URI.create(doomed.location()))).doesNotExist();
    assertThat(survivorData).exists();
    assertThat(catalog.loadTable(TableIdentifier.of(NS, "survivor")).location())
        .isEqualTo(survivor.location());

    // Once purged, the location is free again.
    deadline = System.currentTimeMillis() + 30_000;
    Table reborn = null;
    while (reborn == null) {
      try {
        reborn =
            catalog
                .buildTable(TableIdentifier.of(NS, "reborn"), SCHEMA)
                .withLocation(doomed.location())
                .create();
      } catch (BadRequestException e) {
        if (System.currentTimeMillis() > deadline) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
    assertThat(reborn.location()).isEqualTo(doomed.location());
  }

  /**
   * Repeated loads of a table on a local warehouse are answered on the event loop from the cached
   * body; they must answer exactly what the full load answered, follow commits, honour {@code
   * If-None-Match}, and still answer 404 once the metadata file is gone.
   */
  @Test
  void repeatedLoadsAnswerLikeTheFirstAndFollowTheTable() throws Exception {
    Table table =
        catalog.createTable(
            TableIdentifier.of(NS, "cached"), SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    String path = "/v1/default/namespaces/loc/tables/cached";
    for (String mode : new String[] {"", "?snapshots=refs"}) {
      HttpResponse<String> first = get(path + mode, null);
      assertThat(first.statusCode()).isEqualTo(200);
      String etag = first.headers().firstValue("ETag").orElseThrow();
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> again = get(path + mode, null);
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(again.headers().firstValue("ETag")).contains(etag);
      }
      assertThat(get(path + mode, etag).statusCode()).isEqualTo(304);
    }
    HttpResponse<String> before = get(path, null);
    table.updateProperties().set("cached", "no").commit();
    HttpResponse<String> after = get(path, before.headers().firstValue("ETag").get());
    assertThat(after.statusCode()).as("a commit changes the answer").isEqualTo(200);
    assertThat(after.body()).contains("\"cached\":\"no\"").isNotEqualTo(before.body());
    assertThat(get(path, null).body()).isEqualTo(after.body());

    String metadata =
        ((HasTableOperations) catalog.loadTable(TableIdentifier.of(NS, "cached")))
            .operations()
            .current()
            .metadataFileLocation();
    Files.delete(Paths.get(URI.create(metadata)));
    assertThat(get(path, null).statusCode()).as("the file is gone").isEqualTo(404);
    assertThat(get(path + "?snapshots=refs", null).statusCode()).isEqualTo(404);
  }

  private static HttpResponse<String> get(String path, String ifNoneMatch) throws Exception {
    var request = HttpRequest.newBuilder(URI.create(floe.uri() + path)).GET();
    if (ifNoneMatch != null) {
      request.header("If-None-Match", ifNoneMatch);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void createsAndCommitsToEveryFormatVersion(int formatVersion) {
    TableIdentifier id = TableIdentifier.of(NS, "v" + formatVersion);
    Map<String, String> properties =
        new HashMap<>(Map.of("format-version", String.valueOf(formatVersion)));
    Table table = catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), properties);
    table.newFastAppend().appendFile(DataFileEntries.of(table, "x")).commit();
    table.updateSchema().addColumn("extra", Types.StringType.get()).commit();

    Table loaded = catalog.loadTable(id);
    assertThat(((HasTableOperations) loaded).operations().current().formatVersion())
        .isEqualTo(formatVersion);
    assertThat(loaded.snapshots()).hasSize(1);
    assertThat(loaded.schema().findField("extra")).isNotNull();
  }

  private static Path write(String location) throws Exception {
    Path path = Paths.get(URI.create(location));
    Files.createDirectories(path.getParent());
    Files.writeString(path, "not really parquet");
    return path;
  }
}
