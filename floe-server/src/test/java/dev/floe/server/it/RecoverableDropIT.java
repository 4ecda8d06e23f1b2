package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.Main;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.AuthHttp.Response;
import dev.floe.server.it.support.DataFileEntries;
import dev.floe.server.it.support.Replays;
import dev.floe.server.it.support.RestClients;
import dev.floe.server.it.support.ServerEvents;
import dev.floe.server.it.support.Waits;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recoverable drops on the real server: a dropped table is kept for its warehouse's recovery
 * period, restorable as it was (uuid, snapshots, metadata file, grants), across a restart, under
 * another name when its own was taken; a reader may not restore; expiry deletes files only of
 * tables dropped with purge, and only inside their own locations; the log of drops and restores
 * replays to the live catalog; {@code floe deleted} lists, restores and expunges from the command
 * line.
 */
class RecoverableDropIT {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()));
  private static final String SCHEMA_JSON =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
          + "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static final Namespace DB = Namespace.of("db");
  private static final String DELETED = "/management/v1/warehouses/default/deleted";

  @TempDir static Path dir;
  private static FloeProcess floe;
  private static Path fast;
  private static String admin;

  @BeforeAll
  static void start() throws Exception {
    fast = Files.createDirectories(dir.resolve("fast"));
    floe =
        new FloeProcess(
                dir.resolve("data"),
                Map.of(
                    "floe.auth", "token",
                    "floe.warehouse.fast.location", fast.toUri().toString(),
                    "floe.warehouse.fast.recovery-period", "PT2S",
                    "floe.purge-interval", "PT1S"))
            .start();
    admin = floe.adminToken();
    try (RESTCatalog catalog = client()) {
      catalog.createNamespace(DB);
    }
  }

  @AfterAll
  static void stop() throws InterruptedException {
    floe.close();
  }

  private static RESTCatalog client() {
    return RestClients.connect(floe.uri(), Map.of("token", admin));
  }

  @Test
  void aDroppedTableIsRestoredAsItWasAfterARestart() throws Exception {
    TableIdentifier id = TableIdentifier.of(DB, "orders");
    String uuid;
    String metadataLocation;
    List<Long> snapshots = new ArrayList<>();
    try (RESTCatalog catalog = client()) {
      Table table = catalog.createTable(id, SCHEMA);
      table.newFastAppend().appendFile(DataFileEntries.of(table, "a")).commit();
      table.newFastAppend().appendFile(DataFileEntries.of(table, "b")).commit();
      table.refresh();
      uuid = table.uuid().toString();
      metadataLocation = metadataLocation(table);
      table.snapshots().forEach(s -> snapshots.add(s.snapshotId()));

      assertThat(catalog.dropTable(id)).isTrue();

      assertThat(catalog.tableExists(id)).isFalse();
      assertThat(catalog.listTables(DB)).doesNotContain(id);
    }
    JsonNode kept =
        only(
            AuthHttp.expect(200, floe.uri(), "GET", DELETED + "?namespace=db", admin, null),
            "orders");
    assertThat(kept.path("kind").asText()).isEqualTo("table");
    assertThat(kept.path("uuid").asText()).isEqualTo(uuid);
    assertThat(kept.path("purge-requested").asBoolean()).isFalse();
    assertThat(kept.path("deleted-by").asText()).isNotEmpty();
    assertThat(kept.path("expires-at-ms").asLong() - kept.path("deleted-at-ms").asLong())
        .isEqualTo(7L * 24 * 3600 * 1000);

    assertThat(floe.stop()).isIn(0, 143);
    floe.start();

    JsonNode restored =
        AuthHttp.expect(
                200, floe.uri(), "POST", DELETED + "/restore", admin, target("orders", null))
            .json();
    assertThat(restored.path("uuid").asText()).isEqualTo(uuid);
    assertThat(restored.path("name").asText()).isEqualTo("orders");
    assertThat(restored.path("metadata-location").asText()).isEqualTo(metadataLocation);
    try (RESTCatalog catalog = client()) {
      Table table = catalog.loadTable(id);
      assertThat(table.uuid().toString()).isEqualTo(uuid);
      assertThat(metadataLocation(table)).isEqualTo(metadataLocation);
      List<Long> after = new ArrayList<>();
      table.snapshots().forEach(s -> after.add(s.snapshotId()));
      assertThat(after).isEqualTo(snapshots);
      // It is live again: it takes commits.
      table.newFastAppend().appendFile(DataFileEntries.of(table, "c")).commit();
      assertThat(catalog.loadTable(id).snapshots()).hasSize(3);
    }
    assertThat(
            names(AuthHttp.expect(200, floe.uri(), "GET", DELETED + "?namespace=db", admin, null)))
        .doesNotContain("orders");
  }

  @Test
  void aNameTakenMeanwhileNeedsAnotherNameAndThePastShowsTheTableAbsent() throws Exception {
    TableIdentifier id = TableIdentifier.of(DB, "events");
    String oldUuid;
    String newUuid;
    Instant whileDropped;
    try (RESTCatalog catalog = client()) {
      oldUuid = catalog.createTable(id, SCHEMA).uuid().toString();
      catalog.dropTable(id, false);
      Thread.sleep(50);
      whileDropped = Instant.now();
      Thread.sleep(50);
      // The name is free at once, and the new table is placed apart from the kept one's files.
      Table replacement = catalog.createTable(id, SCHEMA);
      newUuid = replacement.uuid().toString();
    }
    assertThat(newUuid).isNotEqualTo(oldUuid);

    Response over =
        AuthHttp.send(floe.uri(), "POST", DELETED + "/restore", admin, target("events", null));
    assertThat(over.status()).as(over.body()).isEqualTo(409);
    assertThat(over.json().path("error").path("type").asText()).isEqualTo("AlreadyExistsException");

    JsonNode restored =
        AuthHttp.expect(
                200,
                floe.uri(),
                "POST",
                DELETED + "/restore",
                admin,
                "{\"kind\":\"table\",\"namespace\":[\"db\"],\"name\":\"events\",\"uuid\":\""
                    + oldUuid
                    + "\",\"as\":\"events_old\"}")
            .json();
    assertThat(restored.path("name").asText()).isEqualTo("events_old");
    try (RESTCatalog catalog = client()) {
      assertThat(catalog.loadTable(TableIdentifier.of(DB, "events_old")).uuid().toString())
          .isEqualTo(oldUuid);
      assertThat(catalog.loadTable(id).uuid().toString()).isEqualTo(newUuid);
    }
    Response again =
        AuthHttp.send(floe.uri(), "POST", DELETED + "/restore", admin, target("events", null));
    assertThat(again.status()).as(again.body()).isEqualTo(404);

    // Between the drop and the restore, the catalog of that time shows neither name's old table.
    String past = "/v1/default@" + whileDropped + "/namespaces/db/tables/";
    assertThat(AuthHttp.send(floe.uri(), "GET", past + "events_old", admin, null).status())
        .isEqualTo(404);
    assertThat(AuthHttp.send(floe.uri(), "GET", past + "events", admin, null).status())
        .isEqualTo(404);
    assertThat(
            AuthHttp.send(
                    floe.uri(), "GET", "/v1/default/namespaces/db/tables/events_old", admin, null)
                .status())
        .isEqualTo(200);
  }

  @Test
  void grantsComeBackAndAReaderMayNotRestoreOrList() {
    String reader = AuthHttp.principalWithToken(floe.uri(), admin, "ria");
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/default/namespaces/db/tables",
        admin,
        "{\"name\":\"granted\",\"schema\":" + SCHEMA_JSON + "}");
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/default/grants",
        admin,
        "{\"principal\":\"ria\",\"namespace\":[\"db\"],\"table\":\"granted\",\"action\":\"read\"}");
    String path = "/v1/default/namespaces/db/tables/granted";
    assertThat(AuthHttp.send(floe.uri(), "GET", path, reader, null).status()).isEqualTo(200);
    AuthHttp.expect(204, floe.uri(), "DELETE", path, admin, null);
    assertThat(AuthHttp.send(floe.uri(), "GET", path, reader, null).status()).isEqualTo(404);

    Response refused =
        AuthHttp.send(floe.uri(), "POST", DELETED + "/restore", reader, target("granted", null));
    assertThat(refused.status()).as(refused.body()).isEqualTo(403);
    assertThat(refused.json().path("error").path("type").asText()).isEqualTo("ForbiddenException");
    assertThat(AuthHttp.send(floe.uri(), "GET", DELETED + "?namespace=db", reader, null).status())
        .isEqualTo(403);
    Response expunge =
        AuthHttp.send(floe.uri(), "POST", DELETED + "/expunge", reader, target("granted", null));
    assertThat(expunge.status()).isEqualTo(403);
    assertThat(names(AuthHttp.expect(200, floe.uri(), "GET", DELETED, admin, null)))
        .contains("granted");

    AuthHttp.expect(200, floe.uri(), "POST", DELETED + "/restore", admin, target("granted", null));
    assertThat(AuthHttp.send(floe.uri(), "GET", path, reader, null).status()).isEqualTo(200);
  }

  @Test
  void grantsFollowARestoreUnderAnotherNameAndTheOldNameKeepsItsOwn() {
    String gil = AuthHttp.principalWithToken(floe.uri(), admin, "gil");
    String tables = "/v1/default/namespaces/db/tables/";
    String views = "/v1/default/namespaces/db/views/";
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/default/namespaces/db/tables",
        admin,
        "{\"name\":\"ledger\",\"schema\":" + SCHEMA_JSON + "}");
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/default/namespaces/db/views",
        admin,
        "{\"name\":\"summary\",\"schema\":"
            + SCHEMA_JSON
            + ",\"view-version\":{\"version-id\":1,\"schema-id\":0,\"timestamp-ms\":1,"
            + "\"summary\":{},\"default-namespace\":[\"db\"],\"representations\":"
            + "[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"spark\"}]},"
            + "\"properties\":{}}");
    for (String name : List.of("ledger", "summary")) {
      AuthHttp.expect(
          204,
          floe.uri(),
          "POST",
          "/management/v1/warehouses/default/grants",
          admin,
          "{\"principal\":\"gil\",\"namespace\":[\"db\"],\"table\":\""
              + name
              + "\",\"action\":\"read\"}");
    }
    assertThat(AuthHttp.send(floe.uri(), "GET", tables + "ledger", gil, null).status())
        .isEqualTo(200);
    assertThat(AuthHttp.send(floe.uri(), "GET", views + "summary", gil, null).status())
        .isEqualTo(200);
    AuthHttp.expect(204, floe.uri(), "DELETE", tables + "ledger", admin, null);
    AuthHttp.expect(204, floe.uri(), "DELETE", views + "summary", admin, null);
    assertThat(AuthHttp.send(floe.uri(), "GET", tables + "ledger_2025", gil, null).status())
        .as("no grant on the other name yet")
        .isNotEqualTo(200);

    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        DELETED + "/restore",
        admin,
        "{\"kind\":\"table\",\"namespace\":[\"db\"],\"name\":\"ledger\",\"as\":\"ledger_2025\"}");
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        DELETED + "/restore",
        admin,
        "{\"kind\":\"view\",\"namespace\":[\"db\"],\"name\":\"summary\",\"as\":\"summary_2025\"}");

    assertThat(AuthHttp.send(floe.uri(), "GET", tables + "ledger_2025", gil, null).status())
        .as("the grantee of the old name reads the table under its new name")
        .isEqualTo(200);
    assertThat(AuthHttp.send(floe.uri(), "GET", views + "summary_2025", gil, null).status())
        .as("and the view")
        .isEqualTo(200);
    JsonNode grants =
        AuthHttp.expect(
                200, floe.uri(), "GET", "/management/v1/warehouses/default/grants", admin, null)
            .json();
    assertThat(grants.toString())
        .as("the old names keep their grants, for a table created there again")
        .contains("\"ledger\"", "\"ledger_2025\"", "\"summary\"", "\"summary_2025\"");
  }

  /**
   * A writer of one namespace cannot end a kept table's recovery period in another by registering,
   * from its own area, a metadata file carrying that table's uuid: the register is 409 and the kept
   * table stays restorable. A manager of the kept table's namespace may, at its own location.
   */
  @Test
  void aRegisterTakesAKeptTableOverOnlyForAManagerOfItsNamespace() throws Exception {
    AuthHttp.expect(
        200, floe.uri(), "POST", "/v1/default/namespaces", admin, "{\"namespace\":[\"vault\"]}");
    AuthHttp.expect(
        200, floe.uri(), "POST", "/v1/default/namespaces", admin, "{\"namespace\":[\"mine\"]}");
    String writer = AuthHttp.principalWithToken(floe.uri(), admin, "mallory");
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/default/grants",
        admin,
        "{\"principal\":\"mallory\",\"namespace\":[\"mine\"],\"action\":\"write\"}");
    String metadata = createIn("default", "vault", "ledger");
    String uuid =
        AuthHttp.expect(
                200, floe.uri(), "GET", "/v1/default/namespaces/vault/tables/ledger", admin, null)
            .json()
            .path("metadata")
            .path("table-uuid")
            .asText();
    AuthHttp.expect(
        204, floe.uri(), "DELETE", "/v1/default/namespaces/vault/tables/ledger", admin, null);
    // The same document, its location moved into the writer's own area.
    Path mine = Path.of(URI.create(floe.warehouseRoot())).resolve("mine").resolve("stolen");
    Files.createDirectories(mine.resolve("metadata"));
    Path copy = mine.resolve("metadata").resolve("00000-copy.metadata.json");
    Files.writeString(
        copy,
        Files.readString(Path.of(URI.create(metadata)))
            .replace(
                tableDir(metadata).toUri().toString().replaceAll("/$", ""),
                mine.toUri().toString().replaceAll("/$", "")));

    Response taken =
        AuthHttp.send(
            floe.uri(),
            "POST",
            "/v1/default/namespaces/mine/register",
            writer,
            "{\"name\":\"stolen\",\"metadata-location\":\"" + copy.toUri() + "\"}");

    assertThat(taken.status()).as(taken.body()).isEqualTo(409);
    assertThat(taken.body()).doesNotContain("vault");
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        DELETED + "/restore",
        admin,
        "{\"kind\":\"table\",\"namespace\":[\"vault\"],\"name\":\"ledger\"}");
    assertThat(
            AuthHttp.expect(
                    200,
                    floe.uri(),
                    "GET",
                    "/v1/default/namespaces/vault/tables/ledger",
                    admin,
                    null)
                .json()
                .path("metadata")
                .path("table-uuid")
                .asText())
        .isEqualTo(uuid);
  }

  @Test
  void noRegisterGivesALiveTablesUuidToAnotherWhereverTheTableHasMoved() throws Exception {
    AuthHttp.expect(
        200, floe.uri(), "POST", "/v1/default/namespaces", admin, "{\"namespace\":[\"uv\"]}");
    AuthHttp.expect(
        200, floe.uri(), "POST", "/v1/default/namespaces", admin, "{\"namespace\":[\"uvmine\"]}");
    String writer = AuthHttp.principalWithToken(floe.uri(), admin, "copier");
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/default/grants",
        admin,
        "{\"principal\":\"copier\",\"namespace\":[\"uvmine\"],\"action\":\"write\"}");
    String metadata = createIn("default", "uv", "live");
    // The live table's document, its location moved into the writer's own area: same uuid.
    Path mine = Path.of(URI.create(floe.warehouseRoot())).resolve("uvmine").resolve("twin");
    Files.createDirectories(mine.resolve("metadata"));
    Path copy = mine.resolve("metadata").resolve("00000-copy.metadata.json");
    Files.writeString(
        copy,
        Files.readString(Path.of(URI.create(metadata)))
            .replace(
                tableDir(metadata).toUri().toString().replaceAll("/$", ""),
                mine.toUri().toString().replaceAll("/$", "")));
    String register = "{\"name\":\"twin\",\"metadata-location\":\"" + copy.toUri() + "\"}";

    Response whileLive =
        AuthHttp.send(
            floe.uri(), "POST", "/v1/default/namespaces/uvmine/register", writer, register);
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/v1/default/tables/rename",
        admin,
        "{\"source\":{\"namespace\":[\"uv\"],\"name\":\"live\"},"
            + "\"destination\":{\"namespace\":[\"uv\"],\"name\":\"moved\"}}");
    Response afterRename =
        AuthHttp.send(
            floe.uri(), "POST", "/v1/default/namespaces/uvmine/register", writer, register);
    Response byAdmin =
        AuthHttp.send(
            floe.uri(), "POST", "/v1/default/namespaces/uvmine/register", admin, register);

    for (Response refused : List.of(whileLive, afterRename, byAdmin)) {
      assertThat(refused.status()).as(refused.body()).isEqualTo(409);
      assertThat(refused.body()).contains("never given to two").doesNotContain("uv.");
    }
    assertThat(
            AuthHttp.send(
                    floe.uri(), "GET", "/v1/default/namespaces/uvmine/tables/twin", admin, null)
                .status())
        .isEqualTo(404);
  }

  @Test
  void aTableDroppedWithPurgeKeepsItsFilesWhileItIsKept() throws Exception {
    String metadata = createIn("default", "db", "doomed");
    Path files = tableDir(metadata);
    AuthHttp.expect(
        204,
        floe.uri(),
        "DELETE",
        "/v1/default/namespaces/db/tables/doomed?purgeRequested=true",
        admin,
        null);
    assertThat(
            only(
                    AuthHttp.expect(200, floe.uri(), "GET", DELETED + "?namespace=db", admin, null),
                    "doomed")
                .path("purge-requested")
                .asBoolean())
        .isTrue();

    // The purger runs every second here: several runs pass while the table is kept.
    Thread.sleep(3500);
    assertThat(Path.of(URI.create(metadata))).exists();

    AuthHttp.expect(200, floe.uri(), "POST", DELETED + "/restore", admin, target("doomed", null));
    assertThat(
            AuthHttp.expect(
                    200, floe.uri(), "GET", "/v1/default/namespaces/db/tables/doomed", admin, null)
                .json()
                .path("metadata-location")
                .asText())
        .isEqualTo(metadata);
    assertThat(files.resolve("metadata")).isDirectory();
  }

  @Test
  void aTableWhoseFilesWereDeletedOutsideFloeIsNotRestored() throws Exception {
    Path table = tableDir(createIn("default", "db", "wiped"));
    AuthHttp.expect(
        204, floe.uri(), "DELETE", "/v1/default/namespaces/db/tables/wiped", admin, null);
    // As Spark's DROP TABLE ... PURGE does: the engine deletes the files itself.
    try (Stream<Path> files = Files.walk(table)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }

    Response refused =
        AuthHttp.send(floe.uri(), "POST", DELETED + "/restore", admin, target("wiped", null));

    assertThat(refused.status()).as(refused.body()).isEqualTo(422);
    assertThat(refused.json().path("error").path("message").asText())
        .contains("metadata file", "Expunge it");
    assertThat(names(AuthHttp.expect(200, floe.uri(), "GET", DELETED, admin, null)))
        .as("still kept, so it can be expunged")
        .contains("wiped");
    assertThat(
            AuthHttp.send(floe.uri(), "GET", "/v1/default/namespaces/db/tables/wiped", admin, null)
                .status())
        .isEqualTo(404);
    AuthHttp.expect(204, floe.uri(), "POST", DELETED + "/expunge", admin, target("wiped", null));
  }

  @Test
  void aDroppedViewIsRestoredAsItWas() {
    String views = "/v1/default/namespaces/db/views";
    String created =
        AuthHttp.expect(
                200,
                floe.uri(),
                "POST",
                views,
                admin,
                "{\"name\":\"recent\",\"schema\":"
                    + SCHEMA_JSON
                    + ",\"view-version\":{\"version-id\":1,\"schema-id\":0,\"timestamp-ms\":1,"
                    + "\"summary\":{},\"default-namespace\":[\"db\"],\"representations\":"
                    + "[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"spark\"}]},"
                    + "\"properties\":{}}")
            .json()
            .path("metadata")
            .path("view-uuid")
            .asText();
    AuthHttp.expect(204, floe.uri(), "DELETE", views + "/recent", admin, null);
    assertThat(AuthHttp.send(floe.uri(), "GET", views + "/recent", admin, null).status())
        .isEqualTo(404);
    Response asTable =
        AuthHttp.send(floe.uri(), "POST", DELETED + "/restore", admin, target("recent", null));
    assertThat(asTable.status()).as("a view is not restored as a table").isEqualTo(404);

    JsonNode restored =
        AuthHttp.expect(
                200,
                floe.uri(),
                "POST",
                DELETED + "/restore",
                admin,
                "{\"kind\":\"view\",\"namespace\":[\"db\"],\"name\":\"recent\"}")
            .json();

    assertThat(restored.path("uuid").asText()).isEqualTo(created);
    assertThat(
            AuthHttp.expect(200, floe.uri(), "GET", views + "/recent", admin, null)
                .json()
                .path("metadata")
                .path("view-uuid")
                .asText())
        .isEqualTo(created);
  }

  @Test
  void badRequestsAre400AndChangeNothing() {
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/default/namespaces/db/tables",
        admin,
        "{\"name\":\"bad\",\"schema\":" + SCHEMA_JSON + "}");
    AuthHttp.expect(204, floe.uri(), "DELETE", "/v1/default/namespaces/db/tables/bad", admin, null);
    for (String body :
        List.of(
            "{\"kind\":\"index\",\"namespace\":[\"db\"],\"name\":\"bad\"}",
            "{\"kind\":\"table\",\"name\":\"bad\"}",
            "{\"kind\":\"table\",\"namespace\":[\"db\"],\"name\":\"bad\",\"uuid\":\"nope\"}",
            "{\"kind\":\"table\",\"namespace\":[\"db\"],\"name\":\"bad\",\"as\":\"\"}")) {
      Response response = AuthHttp.send(floe.uri(), "POST", DELETED + "/restore", admin, body);
      assertThat(response.status()).as(body).isEqualTo(400);
      assertThat(response.json().path("error").path("code").asInt()).isEqualTo(400);
    }
    Response retain =
        AuthHttp.send(
            floe.uri(),
            "POST",
            DELETED + "/expunge",
            admin,
            "{\"kind\":\"table\",\"namespace\":[\"db\"],\"name\":\"bad\",\"retain-data\":\"yes\"}");
    assertThat(retain.status()).isEqualTo(400);
    assertThat(
            names(AuthHttp.expect(200, floe.uri(), "GET", DELETED + "?namespace=db", admin, null)))
        .contains("bad");
  }

  @Test
  void expiryDeletesFilesOnlyOfPurgedTablesAndOnlyInsideThem() throws Exception {
    AuthHttp.expect(
        200, floe.uri(), "POST", "/v1/fast/namespaces", admin, "{\"namespace\":[\"e\"]}");
    Path purged = tableDir(createIn("fast", "e", "purged"));
    Path kept = tableDir(createIn("fast", "e", "kept"));
    Path retained = tableDir(createIn("fast", "e", "retained"));
    Path live = tableDir(createIn("fast", "e", "live"));
    Path beside = Files.writeString(purged.getParent().resolve("beside.txt"), "not the table's");

    String tables = "/v1/fast/namespaces/e/tables/";
    AuthHttp.expect(204, floe.uri(), "DELETE", tables + "purged?purgeRequested=true", admin, null);
    AuthHttp.expect(204, floe.uri(), "DELETE", tables + "kept?purgeRequested=false", admin, null);
    AuthHttp.expect(
        204, floe.uri(), "DELETE", tables + "retained?purgeRequested=true", admin, null);
    // Soft-deleted: nothing is deleted yet.
    assertThat(purged).isDirectory();
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/fast/deleted/expunge",
        admin,
        "{\"kind\":\"table\",\"namespace\":[\"e\"],\"name\":\"retained\",\"retain-data\":true}");

    Waits.until(() -> !Files.exists(purged), "the purged table's files are deleted after expiry");
    Waits.until(
        () ->
            names(
                    AuthHttp.expect(
                        200,
                        floe.uri(),
                        "GET",
                        "/management/v1/warehouses/fast/deleted",
                        admin,
                        null))
                .isEmpty(),
        "every kept table expired");
    // The purger has had time to act on anything it would act on.
    Thread.sleep(2500);
    assertThat(kept.resolve("metadata")).isDirectory();
    assertThat(retained.resolve("metadata")).isDirectory();
    assertThat(live.resolve("metadata")).isDirectory();
    assertThat(beside).exists();

    List<CatalogEvent> events = ServerEvents.read(floe.dataDir());
    assertThat(events)
        .filteredOn(
            e -> e instanceof TableExpungedEvent x && x.identifier().name().equals("purged"))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.principal()).isEqualTo("floe-expiry");
              assertThat(((TableExpungedEvent) e).purge()).isTrue();
            });
    assertThat(events)
        .filteredOn(e -> e instanceof TableExpungedEvent x && x.identifier().name().equals("kept"))
        .singleElement()
        .satisfies(e -> assertThat(((TableExpungedEvent) e).purge()).isFalse());
    assertThat(events)
        .filteredOn(
            e -> e instanceof TableExpungedEvent x && x.identifier().name().equals("retained"))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.principal()).isNotEqualTo("floe-expiry");
              assertThat(((TableExpungedEvent) e).purge()).isFalse();
            });
  }

  @Test
  void replayingDropsAndRestoresGivesTheLiveCatalog() throws Exception {
    try (RESTCatalog catalog = client()) {
      Namespace replay = Namespace.of("replayed");
      catalog.createNamespace(replay);
      TableIdentifier a = TableIdentifier.of(replay, "a");
      Table table = catalog.createTable(a, SCHEMA);
      table.newFastAppend().appendFile(DataFileEntries.of(table, "x")).commit();
      catalog.dropTable(a, false);
      catalog.createTable(a, SCHEMA);
      AuthHttp.expect(
          200,
          floe.uri(),
          "POST",
          DELETED + "/restore",
          admin,
          "{\"kind\":\"table\",\"namespace\":[\"replayed\"],\"name\":\"a\",\"as\":\"a_back\"}");
      catalog.dropTable(a, false);
      AuthHttp.expect(
          200,
          floe.uri(),
          "POST",
          DELETED + "/restore",
          admin,
          "{\"kind\":\"table\",\"namespace\":[\"replayed\"],\"name\":\"a\"}");
    }
    Replays.matchLive(floe, admin, dir.resolve("replay"));
  }

  @Test
  void theDeletedCommandListsRestoresAndExpunges() throws Exception {
    TableIdentifier id = TableIdentifier.of(DB, "cli_orders");
    String uuid;
    try (RESTCatalog catalog = client()) {
      Table table = catalog.createTable(id, SCHEMA);
      table.newFastAppend().appendFile(DataFileEntries.of(table, "a")).commit();
      uuid = table.uuid().toString();
      assertThat(catalog.dropTable(id, false)).isTrue();
    }

    Cli listed = floeCommand("deleted", "list", "--warehouse", "default", "--namespace", "db");
    assertThat(listed.exit()).as(listed.output()).isZero();
    assertThat(listed.output().lines().findFirst().orElseThrow().split(" +"))
        .containsExactly(
            "KIND", "NAMESPACE", "NAME", "UUID", "DELETED-AT", "EXPIRES-AT", "DELETED-BY", "PURGE");
    JsonNode kept = withUuid(cliJson("list", "--warehouse", "default", "--namespace", "db"), uuid);
    assertThat(listed.output().lines().filter(line -> line.contains(uuid)))
        .singleElement()
        .satisfies(
            line ->
                assertThat(line.split(" +"))
                    .containsExactly(
                        "table",
                        "db",
                        "cli_orders",
                        uuid,
                        Instant.ofEpochMilli(kept.path("deleted-at-ms").asLong()).toString(),
                        Instant.ofEpochMilli(kept.path("expires-at-ms").asLong()).toString(),
                        kept.path("deleted-by").asText(),
                        "no"));

    Cli restored =
        cli("restore", "--warehouse", "default", "--namespace", "db", "--table", "cli_orders");
    assertThat(restored.exit()).as(restored.error()).isZero();
    assertThat(restored.output().trim())
        .isEqualTo("Restored table db.cli_orders (uuid " + uuid + ")");
    try (RESTCatalog catalog = client()) {
      Table table = catalog.loadTable(id);
      assertThat(table.uuid().toString()).isEqualTo(uuid);
      assertThat(table.snapshots()).hasSize(1);
    }
    Cli again =
        cli("restore", "--warehouse", "default", "--namespace", "db", "--table", "cli_orders");
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.error())
        .startsWith("error: NoSuchTableException: ")
        .contains("cli_orders")
        .doesNotContain("{");

    String metadata =
        AuthHttp.expect(
                200, floe.uri(), "GET", "/v1/default/namespaces/db/tables/cli_orders", admin, null)
            .json()
            .path("metadata-location")
            .asText();
    AuthHttp.expect(
        204,
        floe.uri(),
        "DELETE",
        "/v1/default/namespaces/db/tables/cli_orders?purgeRequested=true",
        admin,
        null);
    assertThat(
            withUuid(cliJson("list", "--warehouse", "default"), uuid)
                .path("purge-requested")
                .asBoolean())
        .isTrue();
    Cli expunged =
        cli(
            "expunge",
            "--warehouse",
            "default",
            "--namespace",
            "db",
            "--table",
            "cli_orders",
            "--uuid",
            uuid,
            "--retain-data");
    assertThat(expunged.exit()).as(expunged.error()).isZero();
    assertThat(
            cliJson("list", "--warehouse", "default", "--namespace", "db").json().path("deleted"))
        .noneMatch(e -> e.path("uuid").asText().equals(uuid));
    // The purger runs every second here: retain-data keeps the purged table's files.
    Thread.sleep(2500);
    assertThat(Path.of(URI.create(metadata))).exists();
    Cli gone =
        cli("restore", "--warehouse", "default", "--namespace", "db", "--table", "cli_orders");
    assertThat(gone.exit()).isEqualTo(1);

    Cli bad =
        floeCommand(
            "deleted",
            "restore",
            "--warehouse",
            "default",
            "--namespace",
            "db",
            "--table",
            "a",
            "--view",
            "b");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.output())
        .contains("error: give at most one of --table and --view")
        .contains("see floe deleted restore --help");
  }

  @Test
  void theDeletedCommandRestoresAndExpungesANamespace() throws Exception {
    Namespace scratch = Namespace.of("db", "cli_scratch");
    try (RESTCatalog catalog = client()) {
      catalog.createNamespace(scratch, new HashMap<>(Map.of("owner", "ann")));
      assertThat(catalog.dropNamespace(scratch)).isTrue();
      assertThat(catalog.namespaceExists(scratch)).isFalse();
    }

    for (String in : List.of("db", "db.cli_scratch")) {
      Cli listed = cli("list", "--warehouse", "default", "--namespace", in);
      assertThat(listed.exit()).as(listed.error()).isZero();
      assertThat(listed.output().lines().filter(line -> line.startsWith("namespace ")))
          .as(listed.output())
          .singleElement()
          .satisfies(
              line ->
                  assertThat(line.split(" +"))
                      .startsWith("namespace", "db.cli_scratch", "-", "-")
                      .endsWith("no"));
    }

    Cli restored = cli("restore", "--warehouse", "default", "--namespace", "db.cli_scratch");
    assertThat(restored.exit()).as(restored.error()).isZero();
    assertThat(restored.output().trim())
        .isEqualTo("Restored namespace db.cli_scratch with properties {owner=ann}");
    try (RESTCatalog catalog = client()) {
      assertThat(catalog.loadNamespaceMetadata(scratch)).containsEntry("owner", "ann");
      assertThat(catalog.dropNamespace(scratch)).isTrue();
    }

    Cli expunged =
        cli("expunge", "--warehouse", "default", "--namespace", "db.cli_scratch", "--retain-data");
    assertThat(expunged.exit()).as(expunged.error()).isZero();
    assertThat(expunged.output().trim())
        .isEqualTo(
            "Expunged namespace db.cli_scratch and everything kept inside it (the files of its"
                + " tables are kept)");
    assertThat(
            cliJson("list", "--warehouse", "default", "--namespace", "db").json().path("deleted"))
        .noneMatch(e -> e.path("kind").asText().equals("namespace"));
    Cli gone = cli("restore", "--warehouse", "default", "--namespace", "db.cli_scratch");
    assertThat(gone.exit()).isEqualTo(1);
    assertThat(gone.error())
        .startsWith("error: NoSuchNamespaceException: ")
        .contains("cli_scratch");
  }

  /** What a command printed and its exit status. */
  private record Cli(int exit, String output, String error) {}

  /** {@code floe deleted <args>} in this JVM, against the server, with the admin token. */
  private static Cli cli(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>(List.of("deleted"));
    all.addAll(List.of(args));
    all.addAll(List.of("--url", floe.uri(), "--token", admin));
    int exit =
        Main.run(
            all.toArray(new String[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Cli(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static Response cliJson(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--json");
    Cli listed = cli(all.toArray(new String[0]));
    assertThat(listed.exit()).as(listed.error()).isZero();
    return new Response(200, listed.output());
  }

  /** The packaged {@code floe <args>} in a JVM of its own; output and errors together. */
  private static Cli floeCommand(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--url", floe.uri(), "--token", admin));
    Path log = Files.createTempFile(dir, "cli-", ".log");
    Process process = FloeProcess.launch("256m", all, log, false);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String output = Files.readString(log);
    return new Cli(process.exitValue(), output, output);
  }

  private static String createIn(String warehouse, String namespace, String name) {
    return AuthHttp.expect(
            200,
            floe.uri(),
            "POST",
            "/v1/" + warehouse + "/namespaces/" + namespace + "/tables",
            admin,
            "{\"name\":\"" + name + "\",\"schema\":" + SCHEMA_JSON + "}")
        .json()
        .path("metadata-location")
        .asText();
  }

  private static Path tableDir(String metadataLocation) {
    return Path.of(URI.create(metadataLocation)).getParent().getParent();
  }

  private static String metadataLocation(Table table) {
    return ((HasTableOperations) table).operations().current().metadataFileLocation();
  }

  private static String target(String name, String uuid) {
    return "{\"kind\":\"table\",\"namespace\":[\"db\"],\"name\":\""
        + name
        + "\""
        + (uuid == null ? "" : ",\"uuid\":\"" + uuid + "\"")
        + "}";
  }

  private static List<String> names(Response listed) {
    List<String> names = new ArrayList<>();
    listed.json().path("deleted").forEach(e -> names.add(e.path("name").asText()));
    return names;
  }

  private static JsonNode withUuid(Response listed, String uuid) {
    List<JsonNode> found = new ArrayList<>();
    listed.json().path("deleted").forEach(found::add);
    assertThat(found)
        .as(listed.body())
        .filteredOn(e -> e.path("uuid").asText().equals(uuid))
        .hasSize(1);
    return found.stream()
        .filter(e -> e.path("uuid").asText().equals(uuid))
        .findFirst()
        .orElseThrow();
  }

  private static JsonNode only(Response listed, String name) {
    List<JsonNode> found = new ArrayList<>();
    listed
        .json()
        .path("deleted")
        .forEach(
            e -> {
              if (e.path("name").asText().equals(name)) {
                found.add(e);
              }
            });
    assertThat(found).as(listed.body()).hasSize(1);
    return found.get(0);
  }
}
