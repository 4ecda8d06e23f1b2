package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespaceExpungedEvent;
import dev.floe.events.event.NamespaceRestoredEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.TableFilesPurgedEvent;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.AuthHttp.Response;
import dev.floe.server.it.support.FileHashes;
import dev.floe.server.it.support.Replays;
import dev.floe.server.it.support.ServerEvents;
import dev.floe.server.it.support.Waits;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recoverable namespace drops on the real server: a dropped namespace is hidden (404, absent from
 * lists and from the public namespaces) but keeps its name, properties, grants and visibility;
 * creating it again restores it in place with the create's properties, whatever is kept inside it;
 * what was dropped inside stays kept and is restored into it, top down, or expunged with it; expiry
 * expunges it with its contents and deletes only the files of tables dropped with purge; the log
 * replays to the live catalog.
 */
class RecoverableNamespaceIT {
  private static final String SCHEMA_JSON =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
          + "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static final String DELETED = "/management/v1/warehouses/default/deleted";
  private static final String FAST_DELETED = "/management/v1/warehouses/fast/deleted";

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
  }

  @AfterAll
  static void stop() throws InterruptedException {
    floe.close();
  }

  @Test
  void aDroppedNamespaceIsHiddenAndComesBackInPlaceWithItsGrantsAndVisibility() {
    String reader = AuthHttp.principalWithToken(floe.uri(), admin, "nina");
    String outsider = AuthHttp.principalWithToken(floe.uri(), admin, "otto");
    createNamespace("default", "ops", "{\"owner\":\"platform\",\"tier\":\"gold\"}");
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/default/grants",
        admin,
        "{\"principal\":\"nina\",\"namespace\":[\"ops\"],\"action\":\"read\"}");
    AuthHttp.expect(
        204,
        floe.uri(),
        "PUT",
        "/management/v1/warehouses/default/namespaces/ops/visibility",
        admin,
        "{\"visibility\":\"AUTHENTICATED_PUBLIC\"}");
    assertThat(status("GET", "/v1/default/namespaces/ops", reader)).isEqualTo(200);
    assertThat(topNamespaces(outsider)).contains("ops");

    AuthHttp.expect(204, floe.uri(), "DELETE", "/v1/default/namespaces/ops", admin, null);

    assertThat(status("GET", "/v1/default/namespaces/ops", admin)).isEqualTo(404);
    assertThat(status("HEAD", "/v1/default/namespaces/ops", admin)).isEqualTo(404);
    assertThat(status("GET", "/v1/default/namespaces/ops", reader)).isEqualTo(404);
    assertThat(topNamespaces(admin)).doesNotContain("ops");
    assertThat(topNamespaces(outsider)).doesNotContain("ops");
    assertThat(publicNamespaces()).doesNotContain("[\"ops\"]");
    Response visibility =
        AuthHttp.send(
            floe.uri(),
            "GET",
            "/management/v1/warehouses/default/namespaces/ops/visibility",
            admin,
            null);
    assertThat(visibility.status()).as(visibility.body()).isEqualTo(404);
    assertThat(visibility.json().path("error").path("type").asText())
        .isEqualTo("NoSuchNamespaceException");
    JsonNode kept = onlyNamespace(list(DELETED + "?namespace=ops", admin), "ops");
    assertThat(kept.path("expires-at-ms").asLong() - kept.path("deleted-at-ms").asLong())
        .isEqualTo(7L * 24 * 3600 * 1000);
    assertThat(kept.has("name")).isFalse();
    Response asReader = AuthHttp.send(floe.uri(), "GET", DELETED + "?namespace=ops", reader, null);
    assertThat(asReader.status()).as("a reader may not list what was dropped").isEqualTo(403);

    JsonNode created =
        createNamespace("default", "ops", "{\"tier\":\"silver\",\"team\":\"infra\"}").json();

    assertThat(created.path("properties").has("owner"))
        .as("the create's properties only")
        .isFalse();
    assertThat(created.path("properties").path("tier").asText()).isEqualTo("silver");
    JsonNode loaded =
        AuthHttp.expect(200, floe.uri(), "GET", "/v1/default/namespaces/ops", reader, null).json();
    assertThat(loaded.path("properties").path("team").asText()).isEqualTo("infra");
    assertThat(loaded.path("properties").has("owner")).isFalse();
    assertThat(topNamespaces(outsider)).contains("ops");
    assertThat(publicNamespaces()).contains("[\"ops\"]");
    assertThat(list(DELETED, admin))
        .noneMatch(e -> e.path("namespace").toString().equals("[\"ops\"]"));
    List<CatalogEvent> events = ServerEvents.read(floe.dataDir());
    assertThat(events)
        .filteredOn(
            e -> e instanceof NamespaceRestoredEvent r && r.namespace().toString().equals("ops"))
        .singleElement()
        .satisfies(
            e ->
                assertThat(((NamespaceRestoredEvent) e).properties())
                    .isEqualTo(Map.of("tier", "silver", "team", "infra")));
    assertThat(events)
        .filteredOn(
            e -> e instanceof NamespaceDroppedEvent d && d.namespace().toString().equals("ops"))
        .singleElement()
        .satisfies(e -> assertThat(((NamespaceDroppedEvent) e).kept()).isTrue());
  }

  @Test
  void whatWasDroppedInsideStaysKeptWhenTheNamespaceIsCreatedAgain() {
    String writer = AuthHttp.writerToken(floe, "wes");
    createNamespace("default", "sales", "{\"owner\":\"sales\"}");
    createNamespace("default", "sales%1Feu", null);
    String uuid = createTable("default", "sales", "orders");
    AuthHttp.expect(
        204, floe.uri(), "DELETE", "/v1/default/namespaces/sales/tables/orders", admin, null);
    Response notEmpty =
        AuthHttp.send(floe.uri(), "DELETE", "/v1/default/namespaces/sales", admin, null);
    assertThat(notEmpty.status()).as("a live child namespace still counts").isEqualTo(409);
    AuthHttp.expect(204, floe.uri(), "DELETE", "/v1/default/namespaces/sales%1Feu", admin, null);
    // A dropped table and a dropped child do not count: the namespace drops.
    AuthHttp.expect(204, floe.uri(), "DELETE", "/v1/default/namespaces/sales", admin, null);

    List<JsonNode> inside = list(DELETED + "?namespace=sales", admin);
    assertThat(inside)
        .extracting(
            e ->
                e.path("kind").asText() + ":" + e.path("namespace") + ":" + e.path("name").asText())
        .containsExactlyInAnyOrder(
            "table:[\"sales\"]:orders", "namespace:[\"sales\",\"eu\"]:", "namespace:[\"sales\"]:");
    Response childFirst =
        AuthHttp.send(
            floe.uri(), "POST", DELETED + "/restore", admin, namespaceTarget("sales", "eu"));
    assertThat(childFirst.status()).as(childFirst.body()).isEqualTo(404);
    Response byWriter =
        AuthHttp.send(floe.uri(), "POST", DELETED + "/restore", writer, namespaceTarget("sales"));
    assertThat(byWriter.status()).as("restoring takes manage").isEqualTo(403);
    Response withAs =
        AuthHttp.send(
            floe.uri(),
            "POST",
            DELETED + "/restore",
            admin,
            "{\"kind\":\"namespace\",\"namespace\":[\"sales\"],\"as\":\"sales2\"}");
    assertThat(withAs.status()).as(withAs.body()).isEqualTo(400);
    assertThat(status("GET", "/v1/default/namespaces/sales", admin)).isEqualTo(404);

    // DROP SCHEMA sales CASCADE; CREATE SCHEMA sales, by a writer: what was dropped inside does not
    // hold the name. The namespace comes back in place with the create's properties only.
    JsonNode created =
        AuthHttp.expect(
                200,
                floe.uri(),
                "POST",
                "/v1/default/namespaces",
                writer,
                "{\"namespace\":[\"sales\"],\"properties\":{\"team\":\"new\"}}")
            .json();
    assertThat(created.path("properties").properties())
        .extracting(Map.Entry::getKey)
        .containsExactly("team");
    JsonNode loaded =
        AuthHttp.expect(200, floe.uri(), "GET", "/v1/default/namespaces/sales", writer, null)
            .json();
    assertThat(loaded.path("properties").path("team").asText()).isEqualTo("new");
    assertThat(loaded.path("properties").path("location").asText())
        .as("a namespace created without a location answers its storage area (Trino needs one)")
        .isEqualTo(floe.warehouseRoot() + "/sales");
    assertThat(loaded.path("properties").has("owner"))
        .as("the old properties stay dropped")
        .isFalse();
    assertThat(list(DELETED + "?namespace=sales", admin))
        .as("what was kept inside stays kept")
        .extracting(
            e ->
                e.path("kind").asText() + ":" + e.path("namespace") + ":" + e.path("name").asText())
        .containsExactlyInAnyOrder("table:[\"sales\"]:orders", "namespace:[\"sales\",\"eu\"]:");
    Response again =
        AuthHttp.send(floe.uri(), "POST", DELETED + "/restore", admin, namespaceTarget("sales"));
    assertThat(again.status()).as("the namespace is live: nothing to restore").isEqualTo(404);

    // What was kept inside is restored into the namespace created again, top down.
    AuthHttp.expect(
        200, floe.uri(), "POST", DELETED + "/restore", admin, namespaceTarget("sales", "eu"));
    JsonNode table =
        AuthHttp.expect(
                200,
                floe.uri(),
                "POST",
                DELETED + "/restore",
                admin,
                "{\"kind\":\"table\",\"namespace\":[\"sales\"],\"name\":\"orders\"}")
            .json();
    assertThat(table.path("uuid").asText()).isEqualTo(uuid);
    assertThat(
            AuthHttp.expect(
                    200,
                    floe.uri(),
                    "GET",
                    "/v1/default/namespaces/sales/tables/orders",
                    admin,
                    null)
                .json()
                .path("metadata")
                .path("table-uuid")
                .asText())
        .isEqualTo(uuid);
    assertThat(status("GET", "/v1/default/namespaces/sales%1Feu", admin)).isEqualTo(200);
    assertThat(list(DELETED + "?namespace=sales", admin)).isEmpty();
  }

  @Test
  void aRestoreBringsBackTheOldProperties() {
    createNamespace("default", "archive", "{\"owner\":\"records\"}");
    AuthHttp.expect(204, floe.uri(), "DELETE", "/v1/default/namespaces/archive", admin, null);

    JsonNode restored =
        AuthHttp.expect(
                200, floe.uri(), "POST", DELETED + "/restore", admin, namespaceTarget("archive"))
            .json();

    assertThat(restored.path("properties").path("owner").asText()).isEqualTo("records");
    assertThat(status("GET", "/v1/default/namespaces/archive", admin)).isEqualTo(200);
  }

  @Test
  void expiryExpungesANamespaceWithItsContentsAndEmptiesItsArea() throws Exception {
    createNamespace("fast", "tmp", "{\"k\":\"v\"}");
    Path purged = tableDir(createMetadata("fast", "tmp", "purged"));
    Path kept = tableDir(createMetadata("fast", "tmp", "kept"));
    Path area = purged.getParent();
    Path beside = Files.writeString(area.resolve("beside.txt"), "not a table's");
    createNamespace("fast", "live", null);
    Path live = tableDir(createMetadata("fast", "live", "stays"));
    Map<String, String> before = FileHashes.of(fast, area);
    assertThat(FileHashes.of(area)).isNotEmpty();

    String tables = "/v1/fast/namespaces/tmp/tables/";
    AuthHttp.expect(204, floe.uri(), "DELETE", tables + "purged?purgeRequested=true", admin, null);
    AuthHttp.expect(204, floe.uri(), "DELETE", tables + "kept?purgeRequested=false", admin, null);
    AuthHttp.expect(204, floe.uri(), "DELETE", "/v1/fast/namespaces/tmp", admin, null);

    Waits.until(() -> list(FAST_DELETED, admin).isEmpty(), "everything dropped in tmp expired");
    // Everything in the expired namespace's area goes: the purged table's files, the files of the
    // table dropped without purge, and what was beside them.
    Waits.until(() -> !Files.exists(area), "the expired namespace's area is emptied");
    Thread.sleep(2500);

    assertThat(FileHashes.of(fast, area))
        .as("nothing outside the expired namespace's area changed in the warehouse")
        .isEqualTo(before);
    assertThat(kept.resolve("metadata")).doesNotExist();
    assertThat(beside).doesNotExist();
    assertThat(live.resolve("metadata")).isDirectory();
    String canonicalArea = "file://" + area.toAbsolutePath();
    assertThat(ServerEvents.read(floe.dataDir()))
        .anyMatch(
            e ->
                e instanceof TableFilesPurgedEvent p
                    && p.location().equals(canonicalArea)
                    && p.principal().equals("floe-purger"));
    List<CatalogEvent> events = ServerEvents.read(floe.dataDir());
    List<String> order =
        events.stream()
            .filter(
                e ->
                    (e instanceof TableExpungedEvent t
                            && t.identifier().namespace().toString().equals("tmp"))
                        || (e instanceof NamespaceExpungedEvent n
                            && n.namespace().toString().equals("tmp")))
            .map(e -> e.type() + ":" + e.principal())
            .toList();
    assertThat(order)
        .containsExactlyInAnyOrder(
            "floe.table.expunged:floe-expiry",
            "floe.table.expunged:floe-expiry",
            "floe.namespace.expunged:floe-expiry");
    assertThat(order.get(order.size() - 1)).startsWith("floe.namespace.expunged");

    // Expunged: the name is free, and a create makes a new namespace.
    JsonNode fresh = createNamespace("fast", "tmp", null).json();
    assertThat(fresh.path("properties").has("k")).isFalse();
    assertThat(events)
        .noneMatch(e -> e instanceof NamespaceRestoredEvent r && r.warehouse().equals("fast"));
    assertThat(ServerEvents.read(floe.dataDir()))
        .filteredOn(
            e ->
                e instanceof NamespaceCreatedEvent c
                    && c.warehouse().equals("fast")
                    && c.namespace().toString().equals("tmp"))
        .hasSize(2);
  }

  @Test
  void anExpungeOnRequestMayRetainTheData() throws Exception {
    createNamespace("default", "gone", null);
    Path table = tableDir(createMetadata("default", "gone", "t"));
    AuthHttp.expect(
        204,
        floe.uri(),
        "DELETE",
        "/v1/default/namespaces/gone/tables/t?purgeRequested=true",
        admin,
        null);
    AuthHttp.expect(204, floe.uri(), "DELETE", "/v1/default/namespaces/gone", admin, null);
    Map<String, String> retained = FileHashes.of(table.getParent());
    Response bad =
        AuthHttp.send(
            floe.uri(),
            "POST",
            DELETED + "/expunge",
            admin,
            "{\"kind\":\"namespace\",\"namespace\":[\"gone\"],\"uuid\":\""
                + UUID.randomUUID()
                + "\"}");
    assertThat(bad.status()).as(bad.body()).isEqualTo(400);

    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        DELETED + "/expunge",
        admin,
        "{\"kind\":\"namespace\",\"namespace\":[\"gone\"],\"retain-data\":true}");

    assertThat(list(DELETED + "?namespace=gone", admin)).isEmpty();
    Thread.sleep(2500);
    assertThat(table.resolve("metadata")).as("retained").isDirectory();
    assertThat(FileHashes.of(table.getParent())).as("retained, all of it").isEqualTo(retained);
    JsonNode fresh = createNamespace("default", "gone", null).json();
    assertThat(fresh.path("properties").size()).isZero();
    assertThat(status("GET", "/v1/default/namespaces/gone/tables/t", admin)).isEqualTo(404);
  }

  /**
   * An expunged namespace created again at once: its new tables and anything written after the
   * expunge stay, while what the old namespace left in the area goes.
   */
  @Test
  void anExpungedNamespaceCreatedAgainKeepsItsNewTablesWhileTheOldFilesGo() throws Exception {
    createNamespace("default", "reborn", null);
    Path old = tableDir(createMetadata("default", "reborn", "old"));
    Path area = old.getParent();
    AuthHttp.expect(
        204, floe.uri(), "DELETE", "/v1/default/namespaces/reborn/tables/old", admin, null);
    AuthHttp.expect(204, floe.uri(), "DELETE", "/v1/default/namespaces/reborn", admin, null);
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        DELETED + "/expunge",
        admin,
        "{\"kind\":\"namespace\",\"namespace\":[\"reborn\"]}");
    createNamespace("default", "reborn", null);
    Path fresh = tableDir(createMetadata("default", "reborn", "fresh"));
    Thread.sleep(50);
    Path late = Files.writeString(area.resolve("late.txt"), "written after the expunge");
    Map<String, String> freshFiles = FileHashes.of(fresh);

    Waits.until(() -> !Files.exists(old.resolve("metadata")), "the old table's files are deleted");
    Thread.sleep(2500);

    assertThat(FileHashes.of(fresh)).as("the new table's files").isEqualTo(freshFiles);
    assertThat(late).exists();
    assertThat(status("GET", "/v1/default/namespaces/reborn/tables/fresh", admin)).isEqualTo(200);
  }

  @Test
  void replayingNamespaceDropsAndRestoresGivesTheLiveCatalog() throws Exception {
    createNamespace("default", "again", "{\"a\":\"1\"}");
    AuthHttp.expect(204, floe.uri(), "DELETE", "/v1/default/namespaces/again", admin, null);
    Thread.sleep(50);
    Instant whileDropped = Instant.now();
    Thread.sleep(50);
    createNamespace("default", "again", "{\"b\":\"2\"}");
    AuthHttp.expect(204, floe.uri(), "DELETE", "/v1/default/namespaces/again", admin, null);
    AuthHttp.expect(200, floe.uri(), "POST", DELETED + "/restore", admin, namespaceTarget("again"));
    createNamespace("default", "dropped", null);
    AuthHttp.expect(204, floe.uri(), "DELETE", "/v1/default/namespaces/dropped", admin, null);

    Replays.matchLive(floe, admin, dir.resolve("replay"));
    // The catalog of a time between the drop and the re-create shows the namespace absent.
    String past = "/v1/default@" + whileDropped + "/namespaces/again";
    assertThat(status("GET", past, admin)).isEqualTo(404);
    assertThat(status("GET", "/v1/default@" + Instant.now() + "/namespaces/again", admin))
        .isEqualTo(200);
    JsonNode again =
        AuthHttp.expect(200, floe.uri(), "GET", "/v1/default/namespaces/again", admin, null).json();
    assertThat(again.path("properties").has("a"))
        .as("the create took its own properties")
        .isFalse();
    assertThat(again.path("properties").path("b").asText()).isEqualTo("2");
  }

  private static Response createNamespace(String warehouse, String encoded, String properties) {
    List<String> levels = List.of(encoded.split("%1F"));
    StringBuilder body = new StringBuilder("{\"namespace\":[");
    for (int i = 0; i < levels.size(); i++) {
      body.append(i == 0 ? "" : ",").append('"').append(levels.get(i)).append('"');
    }
    body.append(']');
    if (properties != null) {
      body.append(",\"properties\":").append(properties);
    }
    body.append('}');
    return AuthHttp.expect(
        200, floe.uri(), "POST", "/v1/" + warehouse + "/namespaces", admin, body.toString());
  }

  private static String createTable(String warehouse, String namespace, String name) {
    return create(warehouse, namespace, name).json().path("metadata").path("table-uuid").asText();
  }

  private static String createMetadata(String warehouse, String namespace, String name) {
    return create(warehouse, namespace, name).json().path("metadata-location").asText();
  }

  private static Response create(String warehouse, String namespace, String name) {
    return AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/" + warehouse + "/namespaces/" + namespace + "/tables",
        admin,
        "{\"name\":\"" + name + "\",\"schema\":" + SCHEMA_JSON + "}");
  }

  private static int status(String method, String path, String token) {
    return AuthHttp.send(floe.uri(), method, path, token, null).status();
  }

  private static List<String> topNamespaces(String token) {
    List<String> names = new ArrayList<>();
    AuthHttp.expect(200, floe.uri(), "GET", "/v1/default/namespaces", token, null)
        .json()
        .path("namespaces")
        .forEach(n -> names.add(n.get(0).asText()));
    return names;
  }

  private static String publicNamespaces() {
    return AuthHttp.expect(
            200, floe.uri(), "GET", "/management/v1/warehouses/default/grants", admin, null)
        .json()
        .path("public-namespaces")
        .toString();
  }

  private static List<JsonNode> list(String path, String token) {
    List<JsonNode> found = new ArrayList<>();
    AuthHttp.expect(200, floe.uri(), "GET", path, token, null)
        .json()
        .path("deleted")
        .forEach(found::add);
    return found;
  }

  private static JsonNode onlyNamespace(List<JsonNode> listed, String namespace) {
    List<JsonNode> found =
        listed.stream()
            .filter(e -> e.path("kind").asText().equals("namespace"))
            .filter(e -> e.path("namespace").toString().equals("[\"" + namespace + "\"]"))
            .toList();
    assertThat(found).as("%s", listed).hasSize(1);
    return found.get(0);
  }

  private static String namespaceTarget(String... levels) {
    return "{\"kind\":\"namespace\",\"namespace\":[\"" + String.join("\",\"", levels) + "\"]}";
  }

  private static Path tableDir(String metadataLocation) {
    return Path.of(URI.create(metadataLocation)).getParent().getParent();
  }
}
