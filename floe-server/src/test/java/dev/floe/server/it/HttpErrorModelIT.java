package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.SharedFloe;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The REST spec's error model over raw HTTP against a running server: every failure is {@code
 * {"error":{"message","type","code"}}} with {@code code} equal to the status, and a refused request
 * changes nothing. Each test uses its own namespace names, so they share one server.
 */
class HttpErrorModelIT {
  private static final String NS = "/v1/default/namespaces";
  private static final String SEP = "%1F";
  private static final String CREATE_TABLE_T =
      "{\"name\":\"t\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,"
          + "\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}";
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension static final SharedFloe SHARED = SharedFloe.withAuthOff();

  private static FloeProcess floe;
  private static HttpClient http;

  @BeforeAll
  static void startServer() {
    floe = SHARED.process();
    http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
  }

  // --- config and routing ---

  @Test
  void configForUnknownWarehouseIsNoSuchWarehouse() throws Exception {
    assertError(get("/v1/config?warehouse=nope"), 404, "NoSuchWarehouseException");
  }

  @Test
  void configForDefaultWarehouseAdvertisesPrefixAndEndpoints() throws Exception {
    HttpResponse<String> response = get("/v1/config");
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode body = JSON.readTree(response.body());
    assertThat(body.path("overrides").path("prefix").asText()).isEqualTo("default");
    assertThat(body.path("endpoints").isArray()).isTrue();
    List<String> endpoints = new ArrayList<>();
    body.path("endpoints").forEach(e -> endpoints.add(e.asText()));
    assertThat(endpoints).contains("POST /v1/{prefix}/namespaces/{namespace}/tables/{table}");
  }

  @Test
  void routeUnderUnknownPrefixIsNoSuchWarehouse() throws Exception {
    assertError(get("/v1/nope/namespaces"), 404, "NoSuchWarehouseException");
  }

  @Test
  void unknownPathIsNotFound() throws Exception {
    // The spec names no error type for an unknown route; only the shape is checked.
    assertError(get("/v1/default/no-such-resource"), 404, null);
  }

  @Test
  void wrongMethodOnKnownPathIsMethodNotAllowed() throws Exception {
    assertError(send("PUT", NS, "{}"), 405, null);
  }

  // --- request bodies ---

  @Test
  void malformedJsonIsBadRequestAndCreatesNothing() throws Exception {
    assertBadCreateNamespaceChangesNothing("{\"namespace\":");
  }

  @Test
  void emptyBodyIsBadRequestAndCreatesNothing() throws Exception {
    assertBadCreateNamespaceChangesNothing("");
  }

  @Test
  void wronglyShapedJsonIsBadRequestAndCreatesNothing() throws Exception {
    assertBadCreateNamespaceChangesNothing("{\"namespace\": 5}");
  }

  // --- namespaces ---

  @Test
  void creatingExistingNamespaceIsAlreadyExists() throws Exception {
    createNamespace("dup_ns");
    assertError(post(NS, "{\"namespace\":[\"dup_ns\"]}"), 409, "AlreadyExistsException");
  }

  @Test
  void loadingMissingNamespaceIsNoSuchNamespace() throws Exception {
    assertError(get(NS + "/missing_ns"), 404, "NoSuchNamespaceException");
  }

  @Test
  void headOnMissingNamespaceIsNotFoundWithoutBody() throws Exception {
    HttpResponse<String> response = send("HEAD", NS + "/missing_head_ns", null);
    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.body()).isEmpty();
    // HttpClient never reads a body on HEAD, so look at the bytes on the wire too.
    String raw = rawExchange("HEAD " + NS + "/missing_head_ns HTTP/1.1");
    assertThat(raw).startsWith("HTTP/1.1 404");
    assertThat(raw.substring(raw.indexOf("\r\n\r\n") + 4)).isEmpty();
  }

  @Test
  void headOnExistingNamespaceIsNoContent() throws Exception {
    createNamespace("head_ns");
    HttpResponse<String> response = send("HEAD", NS + "/head_ns", null);
    assertThat(response.statusCode()).isEqualTo(204);
    assertThat(response.body()).isEmpty();
  }

  @Test
  void settingAndRemovingSameKeyIsUnprocessableAndChangesNothing() throws Exception {
    assertThat(
            post(NS, "{\"namespace\":[\"props_conflict\"],\"properties\":{\"k\":\"v\"}}")
                .statusCode())
        .isEqualTo(200);
    String update = "{\"updates\":{\"k\":\"changed\"},\"removals\":[\"k\"]}";
    assertError(
        post(NS + "/props_conflict/properties", update), 422, "UnprocessableEntityException");
    assertThat(namespaceProperties("props_conflict")).isEqualTo(Map.of("k", "v"));
  }

  @Test
  void validPropertyUpdateReportsUpdatedRemovedAndMissing() throws Exception {
    String create = "{\"namespace\":[\"props_ok\"],\"properties\":{\"a\":\"1\",\"b\":\"2\"}}";
    assertThat(post(NS, create).statusCode()).isEqualTo(200);
    String update = "{\"updates\":{\"a\":\"10\",\"c\":\"3\"},\"removals\":[\"b\",\"absent\"]}";
    HttpResponse<String> response = post(NS + "/props_ok/properties", update);
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode body = JSON.readTree(response.body());
    assertThat(texts(body.path("updated"))).containsExactlyInAnyOrder("a", "c");
    assertThat(texts(body.path("removed"))).containsExactly("b");
    assertThat(texts(body.path("missing"))).containsExactly("absent");
    assertThat(namespaceProperties("props_ok")).isEqualTo(Map.of("a", "10", "c", "3"));
  }

  @Test
  void droppingNamespaceHoldingTableIsNamespaceNotEmpty() throws Exception {
    createNamespace("drop_with_table");
    assertThat(post(NS + "/drop_with_table/tables", CREATE_TABLE_T).statusCode()).isEqualTo(200);
    assertError(send("DELETE", NS + "/drop_with_table", null), 409, "NamespaceNotEmptyException");
  }

  @Test
  void droppingNamespaceHoldingChildNamespaceIsNamespaceNotEmpty() throws Exception {
    createNamespace("parent_a");
    assertThat(post(NS, "{\"namespace\":[\"parent_a\",\"b\"]}").statusCode()).isEqualTo(200);
    assertThat(send("HEAD", NS + "/parent_a" + SEP + "b", null).statusCode()).isEqualTo(204);
    assertError(send("DELETE", NS + "/parent_a", null), 409, "NamespaceNotEmptyException");
  }

  @Test
  void creatingChildOfMissingNamespaceIsNoSuchNamespace() throws Exception {
    assertError(post(NS, "{\"namespace\":[\"missing_x\",\"y\"]}"), 404, "NoSuchNamespaceException");
    assertThat(send("HEAD", NS + "/missing_x" + SEP + "y", null).statusCode()).isEqualTo(404);
  }

  // --- tables ---

  @Test
  void creatingTableInMissingNamespaceIsNoSuchNamespace() throws Exception {
    assertError(
        post(NS + "/missing_tbl_ns/tables", CREATE_TABLE_T), 404, "NoSuchNamespaceException");
  }

  @Test
  void creatingTableTwiceIsAlreadyExists() throws Exception {
    createNamespace("twice_ns");
    assertThat(post(NS + "/twice_ns/tables", CREATE_TABLE_T).statusCode()).isEqualTo(200);
    assertError(post(NS + "/twice_ns/tables", CREATE_TABLE_T), 409, "AlreadyExistsException");
  }

  @Test
  void loadingMissingTableIsNoSuchTable() throws Exception {
    createNamespace("no_table_ns");
    assertError(get(NS + "/no_table_ns/tables/absent"), 404, "NoSuchTableException");
  }

  @Test
  void commitWithWrongTableUuidIsCommitFailedAndChangesNothing() throws Exception {
    createNamespace("commit_bad");
    assertThat(post(NS + "/commit_bad/tables", CREATE_TABLE_T).statusCode()).isEqualTo(200);
    HttpResponse<String> response =
        post(
            NS + "/commit_bad/tables/t", setPropertyCommit("00000000-0000-0000-0000-000000000000"));
    JsonNode error = assertError(response, 409, "CommitFailedException");
    assertThat(error.path("message").asText()).startsWith("Requirement failed:");
    assertThat(loadTable("commit_bad").path("metadata").path("properties").has("k")).isFalse();
  }

  @Test
  void commitWithCurrentTableUuidAppliesUpdate() throws Exception {
    createNamespace("commit_ok");
    assertThat(post(NS + "/commit_ok/tables", CREATE_TABLE_T).statusCode()).isEqualTo(200);
    String uuid = loadTable("commit_ok").path("metadata").path("table-uuid").asText();
    HttpResponse<String> response = post(NS + "/commit_ok/tables/t", setPropertyCommit(uuid));
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(
            JSON.readTree(response.body()).path("metadata").path("properties").path("k").asText())
        .isEqualTo("v");
    assertThat(loadTable("commit_ok").path("metadata").path("properties").path("k").asText())
        .isEqualTo("v");
  }

  @Test
  void commitWithNonJsonBodyIsBadRequest() throws Exception {
    createNamespace("commit_garbage");
    assertThat(post(NS + "/commit_garbage/tables", CREATE_TABLE_T).statusCode()).isEqualTo(200);
    assertError(
        post(NS + "/commit_garbage/tables/t", "this is not json"), 400, "BadRequestException");
  }

  @Test
  void tableNameWithSlashAndDotRoundTrips() throws Exception {
    createNamespace("odd_names");
    String name = "we/ird.name";
    String create = CREATE_TABLE_T.replace("\"name\":\"t\"", "\"name\":\"" + name + "\"");
    assertThat(post(NS + "/odd_names/tables", create).statusCode()).isEqualTo(200);

    HttpResponse<String> list = get(NS + "/odd_names/tables");
    assertThat(list.statusCode()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    JSON.readTree(list.body())
        .path("identifiers")
        .forEach(id -> names.add(id.path("name").asText()));
    assertThat(names).containsExactly(name);

    HttpResponse<String> load = get(NS + "/odd_names/tables/we%2Fird.name");
    assertThat(load.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(load.body()).path("metadata").path("table-uuid").asText())
        .isNotEmpty();
  }

  // --- paging ---

  @Test
  void zeroPageSizeIsBadRequest() throws Exception {
    assertError(get(NS + "?pageSize=0"), 400, "BadRequestException");
  }

  @Test
  void nonNumericPageSizeIsBadRequest() throws Exception {
    assertError(get(NS + "?pageSize=abc"), 400, "BadRequestException");
  }

  @Test
  void pagingThroughNamespacesReturnsEachExactlyOnce() throws Exception {
    createNamespace("paged");
    List<String> expected = List.of("c0", "c1", "c2", "c3", "c4");
    for (String child : expected) {
      assertThat(post(NS, "{\"namespace\":[\"paged\",\"" + child + "\"]}").statusCode())
          .isEqualTo(200);
    }
    List<String> seen = new ArrayList<>();
    String token = null;
    for (int pages = 0; pages < 10; pages++) {
      String query =
          "?parent=paged&pageSize=2" + (token == null ? "" : "&pageToken=" + encode(token));
      HttpResponse<String> response = get(NS + query);
      assertThat(response.statusCode()).isEqualTo(200);
      JsonNode body = JSON.readTree(response.body());
      assertThat(body.path("namespaces").size()).isBetween(1, 2);
      body.path("namespaces").forEach(ns -> seen.add(ns.get(ns.size() - 1).asText()));
      JsonNode next = body.path("next-page-token");
      token = next.isMissingNode() || next.isNull() ? null : next.asText();
      if (token == null) {
        break;
      }
    }
    assertThat(token).as("paging ends").isNull();
    assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
  }

  // --- helpers ---

  private static void assertBadCreateNamespaceChangesNothing(String body) throws Exception {
    List<String> before = topLevelNamespaces();
    assertError(post(NS, body), 400, "BadRequestException");
    assertThat(topLevelNamespaces()).isEqualTo(before);
  }

  /** Asserts the ErrorModel and returns its {@code error} object; a null type is only non-blank. */
  private static JsonNode assertError(HttpResponse<String> response, int status, String type)
      throws IOException {
    assertThat(response.statusCode())
        .as("status of %s", response.request().uri())
        .isEqualTo(status);
    JsonNode error = JSON.readTree(response.body()).path("error");
    assertThat(error.isObject()).as("ErrorModel in %s", response.body()).isTrue();
    if (type == null) {
      assertThat(error.path("type").asText()).isNotBlank();
    } else {
      assertThat(error.path("type").asText()).isEqualTo(type);
    }
    assertThat(error.path("code").isInt()).isTrue();
    assertThat(error.path("code").asInt()).isEqualTo(status);
    assertThat(error.path("message").asText()).isNotBlank();
    return error;
  }

  private static void createNamespace(String name) throws Exception {
    HttpResponse<String> response = post(NS, "{\"namespace\":[\"" + name + "\"]}");
    assertThat(response.statusCode()).as("create %s: %s", name, response.body()).isEqualTo(200);
  }

  /** The properties a namespace was given (not the location answered for one without). */
  private static Map<String, String> namespaceProperties(String name) throws Exception {
    HttpResponse<String> response = get(NS + "/" + name);
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode properties = JSON.readTree(response.body()).path("properties");
    Map<String, String> given =
        new TreeMap<>(
            JSON.<Map<String, String>>convertValue(
                properties,
                JSON.getTypeFactory().constructMapType(Map.class, String.class, String.class)));
    assertThat(given.remove("location")).as("the namespace's storage area").endsWith("/" + name);
    return given;
  }

  private static JsonNode loadTable(String namespace) throws Exception {
    HttpResponse<String> response = get(NS + "/" + namespace + "/tables/t");
    assertThat(response.statusCode()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static String setPropertyCommit(String uuid) {
    return "{\"requirements\":[{\"type\":\"assert-table-uuid\",\"uuid\":\""
        + uuid
        + "\"}],"
        + "\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}]}";
  }

  private static List<String> topLevelNamespaces() throws Exception {
    HttpResponse<String> response = get(NS);
    assertThat(response.statusCode()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    JSON.readTree(response.body()).path("namespaces").forEach(ns -> names.add(ns.toString()));
    return names;
  }

  private static List<String> texts(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asText()));
    return values;
  }

  /** One request on its own connection, read to EOF: status line, headers and any body. */
  private static String rawExchange(String requestLine) throws IOException {
    URI uri = URI.create(floe.uri());
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(10_000);
      String request =
          requestLine + "\r\nHost: " + uri.getAuthority() + "\r\nConnection: close\r\n\r\n";
      socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return send("GET", path, null);
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return send("POST", path, body);
  }

  private static HttpResponse<String> send(String method, String path, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(floe.uri() + path)).timeout(Duration.ofSeconds(30));
    if (body == null) {
      request.method(method, BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", "application/json")
          .method(method, BodyPublishers.ofString(body));
    }
    return http.send(request.build(), BodyHandlers.ofString());
  }
}
