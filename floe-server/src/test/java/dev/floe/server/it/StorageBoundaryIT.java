package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.AuthHttp.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage boundary, tried as an attacker holding the narrowest tokens would: Floe with two
 * local warehouses ({@code wha}, {@code whb}); {@code bob} may write only namespace {@code evil} of
 * {@code whb}. Every attempt to read, write, vend or purge outside his own area is refused with 400
 * (403 for rights), and after he drops his tables with purge and the purger has run, nothing
 * outside his area changed on disk: the other warehouse, the other namespaces of his own warehouse,
 * a canary directory outside both, and Floe's data directory (but for Kafka's log and the stores,
 * which every request changes) hash as before.
 */
class StorageBoundaryIT {
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
          + "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static final String VIEW_VERSION =
      "{\"version-id\":1,\"timestamp-ms\":1700000000000,\"schema-id\":0,\"summary\":{},"
          + "\"default-namespace\":[\"evil\"],\"representations\":[{\"type\":\"sql\","
          + "\"sql\":\"select 1\",\"dialect\":\"spark\"}]}";

  @TempDir static Path dir;
  private static FloeProcess floe;
  private static Path wha;
  private static Path whb;
  private static Path canary;
  private static String admin;
  private static String bob;
  private static String carol;
  private static String dave;
  private static String victimMetadata;
  private static String victimViewMetadata;
  private static String secTableLocation;
  private static Instant beforeRename;
  private static Map<String, String> before;

  @BeforeAll
  static void start() throws Exception {
    wha = Files.createDirectories(dir.resolve("wha"));
    whb = Files.createDirectories(dir.resolve("whb"));
    canary = Files.createDirectories(dir.resolve("canary"));
    Files.writeString(canary.resolve("keep.txt"), "must survive");
    Files.createDirectories(canary.resolve("metadata"));
    Files.writeString(canary.resolve("metadata/00000-x.metadata.json"), "{}");
    floe =
        new FloeProcess(
                dir.resolve("data"),
                Map.of(
                    "floe.auth",
                    "token",
                    "floe.warehouse.wha.location",
                    wha.toUri().toString(),
                    "floe.warehouse.whb.location",
                    whb.toUri().toString(),
                    // A drop is final at once: what is tested is the purge itself.
                    "floe.warehouse.whb.recovery-period",
                    "PT0S",
                    "floe.purge-interval",
                    "PT1S"))
            .start();
    admin = floe.adminToken();
    bob = AuthHttp.principalWithToken(floe.uri(), admin, "bob");
    carol = AuthHttp.principalWithToken(floe.uri(), admin, "carol");
    dave = AuthHttp.principalWithToken(floe.uri(), admin, "dave");

    namespace("wha", "sec");
    victimMetadata =
        createTable(admin, "wha", "sec", "victim", null).path("metadata-location").asText();
    commitProperty(admin, "wha", "sec", "victim", "owner", "alice");
    victimViewMetadata =
        createView(admin, "wha", "sec", "v", null).path("metadata-location").asText();
    namespace("whb", "sec");
    namespace("whb", "sec2");
    namespace("whb", "evil");
    secTableLocation =
        createTable(admin, "whb", "sec", "t", null).path("metadata").path("location").asText();
    createTable(admin, "whb", "sec", "hist", null);
    commitProperty(admin, "whb", "sec", "hist", "secret", "old-table");
    Thread.sleep(1500);
    beforeRename = Instant.now();
    Thread.sleep(1500);
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/v1/whb/tables/rename",
        admin,
        "{\"source\":{\"namespace\":[\"sec\"],\"name\":\"hist\"},"
            + "\"destination\":{\"namespace\":[\"sec\"],\"name\":\"old\"}}");
    createTable(admin, "whb", "sec", "hist", null);
    grant("bob", "whb", "[\"evil\"]", null, "write");
    grant("carol", "whb", "[\"sec2\"]", "wanted", "write");
    grant("dave", "whb", "[\"sec\"]", "hist", "read");
    before = outsideBobsArea();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    floe.close();
  }

  @Test
  void everyAttackIsRefusedAndThePurgerTouchesNothingOutsideTheAttackersArea() throws Exception {
    String whaRoot = wha.toUri().toString();
    String whbRoot = whb.toUri().toString().replaceAll("/$", "");
    String dataDir = floe.dataDir().toUri().toString();
    List<String> hostile =
        List.of(
            whaRoot,
            whaRoot + "sec",
            whaRoot + "sec/victim-x",
            "file:/",
            "file:///",
            "file://localhost" + canary,
            "file:" + canary,
            canary.toString(),
            dataDir,
            dataDir + "kafka",
            whbRoot,
            whbRoot + "/sec",
            whbRoot + "//sec",
            whbRoot + "/./sec",
            whbRoot + "/%73ec",
            secTableLocation,
            secTableLocation + "/inner",
            whbRoot + "/evil/../sec/x",
            whbRoot + "/evil/%2e%2e/%2e%2e/wha",
            whbRoot + "/evil/%c0%ae%c0%ae/x",
            whbRoot + "/evil/a\r\nb",
            whbRoot + "/evil/a\u0000b",
            "hdfs://namenode/wh/x",
            "http://example.com/x",
            "relative/path",
            "s3://other-bucket/x");
    List<String> refusals = new ArrayList<>();

    // Register another warehouse's table or view, or any file the server can read.
    for (String file :
        List.of(
            victimMetadata,
            canary.resolve("metadata/00000-x.metadata.json").toUri().toString(),
            "file:///etc/passwd",
            whbRoot + "/evil/%2e%2e/%2e%2e/wha/x.metadata.json")) {
      refusals.add(
          file
              + '\u0001'
              + expectRefused(
                  400, post(bob, "/v1/whb/namespaces/evil/register", register("stolen", file))));
    }
    expectRefused(
        400,
        post(
            bob,
            "/v1/whb/namespaces/evil/register-view",
            register("stolen-view", victimViewMetadata)));

    // Create a table or view anywhere but in its own free space.
    for (String location : hostile) {
      refusals.add(
          location
              + '\u0001'
              + expectRefused(
                  400,
                  post(bob, "/v1/whb/namespaces/evil/tables", createTableBody("t", location))));
      refusals.add(
          location
              + '\u0001'
              + expectRefused(
                  400, post(bob, "/v1/whb/namespaces/evil/views", createViewBody("v", location))));
    }

    // Move his own table and view, or their write paths, anywhere outside his free space.
    createTable(bob, "whb", "evil", "mine", null);
    createView(bob, "whb", "evil", "mine_view", null);
    for (String location : hostile) {
      for (Response response :
          List.of(
              commit(bob, "tables", "mine", setLocation(location)),
              commit(bob, "tables", "mine", setProperty("write.data.path", location)),
              commit(bob, "tables", "mine", setProperty("write.metadata.path", location)),
              commit(bob, "views", "mine_view", setLocation(location)),
              commit(bob, "views", "mine_view", setProperty("write.metadata.path", location)))) {
        refusals.add(location + '\u0001' + expectRefused(400, response));
      }
    }
    // A multi-table transaction cannot move files either: the directory never saw the location.
    refusals.add(
        whaRoot
            + '\u0001'
            + expectRefused(
                400,
                post(
                    bob,
                    "/v1/whb/transactions/commit",
                    "{\"table-changes\":[{\"identifier\":{\"namespace\":[\"evil\"],\"name\":\"mine\"},"
                        + "\"requirements\":[],\"updates\":"
                        + setLocation(whaRoot + "moved")
                        + "}]}")));

    // A table-level grant does not let its holder create tables in the namespace.
    expectRefused(
        403,
        post(
            carol,
            "/v1/whb/namespaces/sec2/tables/wanted",
            "{\"requirements\":[{\"type\":\"assert-create\"}],\"updates\":["
                + "{\"action\":\"assign-uuid\",\"uuid\":\""
                + UUID.randomUUID()
                + "\"},"
                + "{\"action\":\"upgrade-format-version\",\"format-version\":2},"
                + "{\"action\":\"add-schema\",\"schema\":"
                + SCHEMA
                + "},"
                + "{\"action\":\"set-current-schema\",\"schema-id\":-1},"
                + "{\"action\":\"set-location\",\"location\":\""
                + whbRoot
                + "/sec2/wanted\"}]}"));
    // A grant on a name opens the past of no other table that held the name before a rename.
    String pastPrefix = URLEncoder.encode("whb@" + beforeRename, StandardCharsets.UTF_8);
    expectRefused(
        403,
        AuthHttp.send(
            floe.uri(), "GET", "/v1/" + pastPrefix + "/namespaces/sec/tables/hist", dave, null));
    assertThat(get(dave, "/v1/whb/namespaces/sec/tables/hist").status()).isEqualTo(200);
    Response past = get(admin, "/v1/" + pastPrefix + "/namespaces/sec/tables/hist");
    assertThat(past.status()).isEqualTo(200);
    assertThat(past.json().path("metadata").path("properties").path("secret").asText())
        .isEqualTo("old-table");

    // No refusal names another entity's location or table that the attacker did not name himself
    // (an overlap is reported without saying with what), nor echoes a line break.
    String secretDirectory = secTableLocation.substring(secTableLocation.lastIndexOf('/') + 1);
    for (String refusal : refusals) {
      String input = refusal.substring(0, refusal.indexOf('\u0001'));
      String answer = refusal.substring(refusal.indexOf('\u0001') + 1);
      for (String secret : List.of(secretDirectory, "victim-")) {
        if (!input.contains(secret)) {
          assertThat(answer).as(input).doesNotContain(secret);
        }
      }
      assertThat(answer).doesNotContain("\r\n");
    }

    // What he may do inside his own namespace still works: create where he likes, move his table.
    createTable(bob, "whb", "evil", "custom", whbRoot + "/evil/custom");
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/whb/namespaces/evil/tables/mine",
        bob,
        "{\"requirements\":[],\"updates\":" + setLocation(whbRoot + "/evil/moved-mine") + "}");
    commitProperty(bob, "whb", "evil", "mine", "k", "v");
    assertThat(Files.isDirectory(whb.resolve("evil/moved-mine/metadata"))).isTrue();

    // He purges everything he has; the purger runs (every second here) and deletes his files only.
    for (String table : List.of("mine", "custom")) {
      AuthHttp.expect(
          204,
          floe.uri(),
          "DELETE",
          "/v1/whb/namespaces/evil/tables/" + table + "?purgeRequested=true",
          bob,
          null);
    }
    AuthHttp.expect(
        204, floe.uri(), "DELETE", "/v1/whb/namespaces/evil/views/mine_view", bob, null);
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline && evilTableFilesLeft()) {
      Thread.sleep(200);
    }
    assertThat(evilTableFilesLeft()).as("the purger removed the attacker's own tables").isFalse();

    assertThat(outsideBobsArea()).isEqualTo(before);
    assertThat(get(admin, "/v1/wha/namespaces/sec/tables/victim").status()).isEqualTo(200);
    assertThat(get(admin, "/v1/whb/namespaces/sec/tables/t").status()).isEqualTo(200);
    assertThat(get(admin, "/v1/wha/namespaces/sec/views/v").status()).isEqualTo(200);
  }

  /** Whether any of bob's purged tables' directories is still on disk. */
  private static boolean evilTableFilesLeft() throws IOException {
    Path evil = whb.resolve("evil");
    if (!Files.exists(evil)) {
      return false;
    }
    try (Stream<Path> children = Files.list(evil)) {
      return children.anyMatch(
          p -> {
            String name = p.getFileName().toString();
            return name.startsWith("mine-") || name.equals("custom") || name.equals("moved-mine");
          });
    }
  }

  /**
   * A digest of every file and directory outside bob's area: both warehouses but {@code whb/evil},
   * the canary, and the data directory but Kafka's log and the stores.
   */
  private static Map<String, String> outsideBobsArea() throws Exception {
    Map<String, String> digests = new TreeMap<>();
    hash(wha, "wha", digests, List.of());
    hash(whb, "whb", digests, List.of(whb.resolve("evil")));
    hash(canary, "canary", digests, List.of());
    Path data = floe.dataDir();
    hash(data, "data", digests, List.of(data.resolve("kafka"), data.resolve("streams")));
    return digests;
  }

  private static void hash(Path root, String label, Map<String, String> into, List<Path> skipped)
      throws Exception {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.toList()) {
        if (skipped.stream().anyMatch(path::startsWith)) {
          continue;
        }
        String key = label + "/" + root.relativize(path);
        if (Files.isDirectory(path)) {
          into.put(key + "/", "dir");
        } else {
          MessageDigest sha = MessageDigest.getInstance("SHA-256");
          into.put(key, HexFormat.of().formatHex(sha.digest(Files.readAllBytes(path))));
        }
      }
    }
  }

  private static String expectRefused(int status, Response response) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    assertThat(response.json().path("error").path("code").asInt()).isEqualTo(status);
    return response.body();
  }

  private static void namespace(String warehouse, String name) {
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/" + warehouse + "/namespaces",
        admin,
        "{\"namespace\":[\"" + name + "\"]}");
  }

  private static void grant(
      String principal, String warehouse, String namespace, String table, String action) {
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/" + warehouse + "/grants",
        admin,
        "{\"principal\":\""
            + principal
            + "\",\"namespace\":"
            + namespace
            + (table == null ? "" : ",\"table\":\"" + table + "\"")
            + ",\"action\":\""
            + action
            + "\"}");
  }

  private static JsonNode createTable(
      String token, String warehouse, String namespace, String name, String location) {
    return AuthHttp.expect(
            200,
            floe.uri(),
            "POST",
            "/v1/" + warehouse + "/namespaces/" + namespace + "/tables",
            token,
            createTableBody(name, location))
        .json();
  }

  private static JsonNode createView(
      String token, String warehouse, String namespace, String name, String location) {
    return AuthHttp.expect(
            200,
            floe.uri(),
            "POST",
            "/v1/" + warehouse + "/namespaces/" + namespace + "/views",
            token,
            createViewBody(name, location))
        .json();
  }

  private static void commitProperty(
      String token, String warehouse, String namespace, String table, String key, String value) {
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/" + warehouse + "/namespaces/" + namespace + "/tables/" + table,
        token,
        "{\"requirements\":[],\"updates\":" + setProperty(key, value) + "}");
  }

  private static String createTableBody(String name, String location) {
    return "{\"name\":\""
        + name
        + "\",\"schema\":"
        + SCHEMA
        + (location == null ? "" : ",\"location\":" + json(location))
        + "}";
  }

  private static String createViewBody(String name, String location) {
    return "{\"name\":\""
        + name
        + "\",\"schema\":"
        + SCHEMA
        + ",\"view-version\":"
        + VIEW_VERSION
        + ",\"properties\":{}"
        + (location == null ? "" : ",\"location\":" + json(location))
        + "}";
  }

  private static String register(String name, String file) {
    return "{\"name\":\"" + name + "\",\"metadata-location\":" + json(file) + "}";
  }

  private static String setLocation(String location) {
    return "[{\"action\":\"set-location\",\"location\":" + json(location) + "}]";
  }

  private static String setProperty(String key, String value) {
    return "[{\"action\":\"set-properties\",\"updates\":{\"" + key + "\":" + json(value) + "}}]";
  }

  private static Response commit(String token, String kind, String name, String updates) {
    return post(
        token,
        "/v1/whb/namespaces/evil/" + kind + "/" + name,
        "{\"requirements\":[],\"updates\":" + updates + "}");
  }

  private static Response post(String token, String path, String body) {
    return AuthHttp.send(floe.uri(), "POST", path, token, body);
  }

  private static Response get(String token, String path) {
    return AuthHttp.send(floe.uri(), "GET", path, token, null);
  }

  private static String json(String value) {
    try {
      return AuthHttp.JSON.writeValueAsString(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
