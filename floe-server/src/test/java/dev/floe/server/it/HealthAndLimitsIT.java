package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.HostileBodies;
import dev.floe.server.it.support.RawHttp;
import dev.floe.server.it.support.SseClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edge's limits and probes against a running server: bodies over 10 MiB (declared, chunked,
 * endless) are 413; JSON past the parser's bounds and commits past 1000 changes are 400; a command
 * too large for the log is 413; the health probes answer while starting and once ready; {@code
 * /metrics} exposes latency, command outcomes and the processor's Kafka Streams metrics.
 */
class HealthAndLimitsIT {
  private static final String NS = "/v1/default/namespaces";
  private static final int LIMIT = 10 * 1024 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dataDir;
  private static FloeProcess floe;
  private static HttpClient http;
  private static final List<String> whileStarting = new CopyOnWriteArrayList<>();
  private static List<String> startLog;

  @BeforeAll
  static void startWatchingTheProbes() throws Exception {
    http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    floe = new FloeProcess(dataDir);
    AtomicBoolean started = new AtomicBoolean();
    Thread watcher = new Thread(() -> watchProbes(started), "probe-watcher");
    watcher.start();
    try {
      floe.start();
    } finally {
      started.set(true);
      watcher.join();
    }
    startLog = Files.readAllLines(floe.log());
    assertThat(post(NS, "{\"namespace\":[\"limits\"]}").statusCode()).isEqualTo(200);
    String create = "{\"name\":\"t\",\"schema\":" + HostileBodies.SCHEMA + "}";
    assertThat(post(NS + "/limits/tables", create).statusCode()).isEqualTo(200);
  }

  /** Polls both probes until the server is up, recording "live=<status> ready=<status> <body>". */
  private static void watchProbes(AtomicBoolean started) {
    while (!started.get()) {
      try {
        HttpResponse<String> live = get("/health/live");
        HttpResponse<String> ready = get("/health/ready");
        whileStarting.add(
            "live=" + live.statusCode() + " ready=" + ready.statusCode() + " " + ready.body());
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        return;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (floe != null) {
      floe.close();
    }
  }

  // --- health ---

  @Test
  void startingServerIsLiveButNotReady() throws Exception {
    assertThat(whileStarting).as("probe answers seen while starting").isNotEmpty();
    assertThat(whileStarting).allMatch(answer -> answer.startsWith("live=200 "));
    String notReady =
        whileStarting.stream()
            .filter(answer -> answer.contains("ready=503"))
            .findFirst()
            .orElseThrow();
    JsonNode error = JSON.readTree(notReady.substring(notReady.indexOf('{'))).path("error");
    assertThat(error.path("code").asInt()).isEqualTo(503);
    assertThat(error.path("type").asText()).isEqualTo("ServiceUnavailableException");
  }

  @Test
  void aFirstStartLogsNoErrorAndNoAdviceToConfigureKafka() {
    assertThat(startLog).as("the server's output up to ready").isNotEmpty();
    assertThat(startLog)
        .as("no ERROR, Log4j 2's own included (Kafka's broker logs through it to Logback)")
        .noneMatch(line -> line.contains("ERROR"))
        .as("Kafka Streams' start-up advice is followed (StreamsSettings)")
        .noneMatch(line -> line.contains("processing.exception.handler.global.enabled"));
  }

  /**
   * The warnings docs/operations.md ("Logs") lists for a start: Kafka's controller activation on a
   * new broker log, its race between first requests that each ask for an internal topic (on a busy
   * machine), Kafka Streams' advice when the data directory is under the temporary directory (as a
   * test's is), and Floe's own when authentication is off (as here).
   */
  private static final List<String> DOCUMENTED_WARNINGS =
      List.of(
          "Performing controller activation",
          "with error 'TOPIC_ALREADY_EXISTS'",
          "Using an OS temp directory in the state.dir property",
          "AUTHENTICATION IS OFF");

  @Test
  void theLogHoldsNoWarningButTheDocumentedOnesAfterEventPagesAStreamAndConsoleReads()
      throws Exception {
    int before = Files.readAllLines(floe.log()).size();
    // What the console reads on its pages, and the events endpoint paged and streamed.
    for (String path :
        List.of(
            "/v1/config?warehouse=default",
            NS,
            NS + "/limits/tables",
            NS + "/limits/tables/t",
            "/management/v1/whoami",
            "/")) {
      assertThat(get(path).statusCode()).as(path).isLessThan(400);
    }
    String token = "";
    for (int page = 0; page < 5; page++) {
      HttpResponse<String> events =
          post(
              "/v1/default/events",
              token.isEmpty()
                  ? "{\"page-size\":2}"
                  : "{\"page-size\":2,\"continuation-token\":\"" + token + "\"}");
      assertThat(events.statusCode()).isEqualTo(200);
      token = JSON.readTree(events.body()).path("continuation-token").asText();
    }
    try (SseClient stream =
        new SseClient(floe.uri(), "/v1/default/events/stream?since-timestamp-ms=0", "none", null)) {
      stream.awaitOpen();
      stream.next(Duration.ofSeconds(10));
    }
    Thread.sleep(1000);

    List<String> log = Files.readAllLines(floe.log());
    List<String> checked = new ArrayList<>(startLog);
    checked.addAll(log.subList(before, log.size()));
    List<String> warnings =
        checked.stream()
            .filter(line -> line.matches("^\\S+ (WARN|ERROR) .*"))
            .filter(line -> DOCUMENTED_WARNINGS.stream().noneMatch(line::contains))
            .toList();
    assertThat(warnings).as("WARN and ERROR lines docs/operations.md does not list").isEmpty();
  }

  @Test
  void runningServerIsLiveAndReady() throws Exception {
    HttpResponse<String> live = get("/health/live");
    assertThat(live.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(live.body()).path("status").asText()).isEqualTo("UP");
    HttpResponse<String> ready = get("/health/ready");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(ready.body()).path("status").asText()).isEqualTo("UP");
  }

  @Test
  void probesRefuseOtherMethods() throws Exception {
    assertError(send("POST", "/health/ready", "{}"), 405, "MethodNotAllowedException");
  }

  // --- body size ---

  @Test
  void declaredBodyOverTheLimitIsTooLargeAndCreatesNothing() throws Exception {
    byte[] body = padded("{\"namespace\":[\"too_large_declared\"]}", LIMIT + 1);
    HttpResponse<String> response =
        http.send(
            request("/v1/default/namespaces").POST(BodyPublishers.ofByteArray(body)).build(),
            BodyHandlers.ofString());
    assertError(response, 413, "RequestTooLargeException");
    assertThat(get(NS + "/too_large_declared").statusCode()).isEqualTo(404);
  }

  @Test
  void chunkedBodyOverTheLimitIsTooLargeAndCreatesNothing() throws Exception {
    byte[] body = padded("{\"namespace\":[\"too_large_chunked\"]}", LIMIT + 1);
    HttpResponse<String> response =
        http.send(
            request("/v1/default/namespaces")
                .POST(BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                .build(),
            BodyHandlers.ofString());
    assertError(response, 413, "RequestTooLargeException");
    assertThat(get(NS + "/too_large_chunked").statusCode()).isEqualTo(404);
  }

  @Test
  void endlessChunkedBodyIsRefusedAndTheConnectionCut() throws Exception {
    URI server = URI.create(floe.uri());
    long sent = 0;
    String answer;
    try (Socket socket = new Socket(server.getHost(), server.getPort())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /v1/default/namespaces HTTP/1.1\r\n"
                  + "Host: localhost\r\n"
                  + "Content-Type: application/json\r\n"
                  + "Transfer-Encoding: chunked\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      byte[] chunk = new byte[64 * 1024];
      Arrays.fill(chunk, (byte) ' ');
      byte[] header =
          (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
      try {
        // 1 GiB unless the server cuts it off first.
        while (sent < 1024L * 1024 * 1024) {
          out.write(header);
          out.write(chunk);
          out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
          sent += chunk.length;
        }
      } catch (IOException e) {
        // the server closed the connection: expected
      }
      try {
        answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      } catch (SocketException e) {
        // A reset may discard the 413 before it is read; the cut is what this test is about.
        answer = null;
      }
    }
    assertThat(sent).as("bytes accepted before the cut").isLessThan(64L * 1024 * 1024);
    if (answer != null) {
      assertThat(answer).startsWith("HTTP/1.1 413").contains("\"code\":413");
    }
  }

  @Test
  void aRequestWithBothTransferEncodingAndContentLengthIsRefusedAndTheConnectionClosed()
      throws Exception {
    URI server = URI.create(floe.uri());
    String body = "{\"namespace\":[\"smuggled\"]}";
    String answer;
    try (Socket socket = new Socket(server.getHost(), server.getPort())) {
      socket.setSoTimeout(30_000);
      // Framed by its chunks, the body creates a namespace; framed by its length, the rest would be
      // a second request. Neither framing may be chosen: the request is refused.
      socket
          .getOutputStream()
          .write(
              ("POST /v1/default/namespaces HTTP/1.1\r\n"
                      + "Host: localhost\r\n"
                      + "Content-Type: application/json\r\n"
                      + "Content-Length: 5\r\n"
                      + "Transfer-Encoding: chunked\r\n\r\n"
                      + Integer.toHexString(body.length())
                      + "\r\n"
                      + body
                      + "\r\n0\r\n\r\n"
                      + "GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      // The server closes the connection: reading to the end returns.
      answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(answer)
        .startsWith("HTTP/1.1 400")
        .contains("\"code\":400")
        .contains("Transfer-Encoding and Content-Length");
    assertThat(answer.split("HTTP/1.1 ", -1))
        .as("one answer: nothing after it was read")
        .hasSize(2);
    assertThat(get("/v1/default/namespaces/smuggled").statusCode()).isEqualTo(404);
  }

  @Test
  void bodyExactlyAtTheLimitIsRead() throws Exception {
    byte[] body = padded("{\"namespace\":[\"limits\"]}", LIMIT);
    // Parsed in full: the namespace exists, so 409, not 413 or 400.
    HttpResponse<String> response =
        http.send(
            request(NS).POST(BodyPublishers.ofByteArray(body)).build(), BodyHandlers.ofString());
    assertError(response, 409, "AlreadyExistsException");
  }

  // --- JSON bounds ---

  @Test
  void nestingDeeperThanTheBoundIsBadRequest() throws Exception {
    assertError(post(NS, nested(63)), 409, "AlreadyExistsException");
    HttpResponse<String> deep = post(NS, nested(64));
    assertError(deep, 400, "BadRequestException");
    assertThat(deep.body()).contains("nesting depth");
  }

  @Test
  void stringLongerThanOneMebibyteIsBadRequest() throws Exception {
    String value = "v".repeat(1024 * 1024 + 1);
    HttpResponse<String> response =
        post(NS, "{\"namespace\":[\"limits\"],\"properties\":{\"k\":\"" + value + "\"}}");
    assertError(response, 400, "BadRequestException");
    assertThat(response.body()).contains("String value length");
  }

  @Test
  void numberLongerThanTheBoundIsBadRequest() throws Exception {
    HttpResponse<String> response =
        post(NS, "{\"namespace\":[\"limits\"],\"x\":" + "1".repeat(101) + "}");
    assertError(response, 400, "BadRequestException");
    assertThat(response.body()).contains("Number value length");
  }

  @Test
  void commitWithMoreThanAThousandUpdatesIsBadRequest() throws Exception {
    String update = "{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}";
    String failing =
        "{\"type\":\"assert-table-uuid\",\"uuid\":\"00000000-0000-0000-0000-000000000000\"}";
    // A thousand are read and decided (the requirement fails); one more is refused unread.
    assertError(
        post(NS + "/limits/tables/t", commit(List.of(failing), Collections.nCopies(1000, update))),
        409,
        "CommitFailedException");
    HttpResponse<String> tooMany =
        post(NS + "/limits/tables/t", commit(List.of(), Collections.nCopies(1001, update)));
    assertError(tooMany, 400, "BadRequestException");
    assertThat(tooMany.body()).contains("Too many updates in one commit: 1001 (at most 1000)");
    HttpResponse<String> tooManyRequirements =
        post(NS + "/limits/tables/t", commit(Collections.nCopies(1001, failing), List.of()));
    assertError(tooManyRequirements, 400, "BadRequestException");
    assertThat(loadProperties()).doesNotContainKey("k");
  }

  /**
   * Commits of 9 MB each (past Kafka's default 1 MB record) apply until the table's metadata would
   * pass what Floe keeps for one table (24 MiB): that commit is 413 and changes nothing, and the
   * table still takes commits. The megabytes are column docs of added schemas (a request's
   * properties are bounded to 1 MiB).
   */
  @Test
  void aTableGrowsPastOneMegabyteUntilItsStateWouldBeTooLarge() throws Exception {
    String doc = "v".repeat(1_000_000);
    for (int round = 0; round < 3; round++) {
      StringBuilder fields =
          new StringBuilder("{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}");
      for (int i = 0; i < 9; i++) {
        fields.append(",{\"id\":").append(2 + 9 * round + i).append(",\"name\":\"c");
        fields.append(round).append(i).append("\",\"required\":false,\"type\":\"string\",");
        fields.append("\"doc\":\"").append(doc).append("\"}");
      }
      String update =
          "{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"schema-id\":"
              + (round + 1)
              + ",\"fields\":["
              + fields
              + "]}}";
      HttpResponse<String> answer =
          post(NS + "/limits/tables/t", commit(List.of(), List.of(update)));
      if (round < 2) {
        assertThat(answer.statusCode()).as("commit %d of 9 MB", round).isEqualTo(200);
      } else {
        assertError(answer, 413, "RequestTooLargeException");
        assertThat(answer.body()).contains("more than Floe keeps for one table");
      }
    }
    assertThat(schemaIds()).containsExactly(0, 1, 2);
    String removeBoth = "{\"action\":\"remove-schemas\",\"schema-ids\":[1,2]}";
    assertThat(post(NS + "/limits/tables/t", commit(List.of(), List.of(removeBoth))).statusCode())
        .isEqualTo(200);
    assertThat(schemaIds()).containsExactly(0);
  }

  private static List<Integer> schemaIds() throws Exception {
    HttpResponse<String> response = get(NS + "/limits/tables/t");
    assertThat(response.statusCode()).isEqualTo(200);
    List<Integer> ids = new ArrayList<>();
    JSON.readTree(response.body())
        .path("metadata")
        .path("schemas")
        .forEach(schema -> ids.add(schema.path("schema-id").asInt()));
    return ids;
  }

  @Test
  void nullByteInPathIsBadRequest() throws Exception {
    assertError(send("DELETE", NS + "/limits/tables/a%00b", null), 400, "BadRequestException");
  }

  @Test
  void undecodableRequestIsAnsweredWithTheErrorModel() throws Exception {
    RawHttp.Response response =
        RawHttp.exchange(
            URI.create(floe.uri()),
            "GET /v1/config HTTP/1.1\r\nHost: localhost\r\nBad\u0001Header: x\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1),
            false,
            10_000);
    assertThat(response.status()).isEqualTo(400);
    assertThat(JSON.readTree(response.body()).path("error").path("code").asInt()).isEqualTo(400);
  }

  // --- metrics ---

  @Test
  void metricsExposeLatencyCommandOutcomesAndStreams() throws Exception {
    assertThat(post(NS, "{\"namespace\":[\"limits\"]}").statusCode()).isEqualTo(409);
    assertThat(
            post(
                    NS + "/limits/tables/t/metrics",
                    "{\"report-type\":\"commit-report\",\"table-name\":\"limits.t\","
                        + "\"snapshot-id\":1,\"sequence-number\":1,\"operation\":\"append\","
                        + "\"metrics\":{}}")
                .statusCode())
        .isEqualTo(204);
    assertThat(get("/health/ready").statusCode()).isEqualTo(200);
    HttpResponse<String> response = get("/metrics");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body())
        .contains(
            "floe_http_request_duration_seconds_bucket{method=\"POST\",route=\"/v1/{prefix}/namespaces\",status=\"409\",le=\"+Inf\"}")
        .contains(
            "floe_http_request_duration_seconds_count{method=\"GET\",route=\"/health/ready\",status=\"200\"}")
        .contains(
            "floe_commands_total{route=\"POST"
                + " /v1/{prefix}/namespaces\",outcome=\"rejected\",code=\"NAMESPACE_ALREADY_EXISTS\"}")
        .contains(
            "floe_commands_total{route=\"POST"
                + " /v1/{prefix}/namespaces\",outcome=\"accepted\",code=\"\"}")
        .contains("floe_command_reply_wait_seconds_count{outcome=\"accepted\"}")
        .contains("floe_streams_state{state=\"RUNNING\"} 1")
        .contains("floe_streams_process_rate{thread_id=")
        .contains("floe_streams_commit_latency_avg_ms{thread_id=")
        .contains("floe_streams_commit_latency_max_ms{thread_id=")
        .contains("floe_streams_records_lag_max{client_id=")
        .contains("floe_consumer_lag_records{client_id=")
        .containsPattern("(?m)^floe_streams_alive_threads\\{client_id=\"[^\"]+\"\\} 1(\\.0)?$")
        .doesNotContain("topic=\"floe_commands\"");
    // Every metric the answer declares has a value.
    List<String> lines = response.body().lines().toList();
    for (String line : lines) {
      if (line.startsWith("# TYPE ")) {
        String name = line.split(" ")[2];
        assertThat(lines)
            .as("a sample of %s", name)
            .anyMatch(
                l ->
                    !l.startsWith("#")
                        && (l.startsWith(name + "{")
                            || l.startsWith(name + " ")
                            || l.startsWith(name + "_")));
      }
    }
  }

  // --- helpers ---

  private static Map<String, String> loadProperties() throws Exception {
    HttpResponse<String> response = get(NS + "/limits/tables/t");
    assertThat(response.statusCode()).isEqualTo(200);
    Map<String, String> properties = new TreeMap<>();
    JSON.readTree(response.body())
        .path("metadata")
        .path("properties")
        .fields()
        .forEachRemaining(e -> properties.put(e.getKey(), e.getValue().asText()));
    return properties;
  }

  /**
   * Create-namespace of the existing {@code limits}, with an extra field nested {@code depth} deep.
   */
  private static String nested(int depth) {
    // The root object is one level: depth 63 inside it is 64 in all.
    return "{\"namespace\":[\"limits\"],\"x\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
  }

  private static String commit(List<String> requirements, List<String> updates) {
    return "{\"requirements\":["
        + String.join(",", requirements)
        + "],\"updates\":["
        + String.join(",", updates)
        + "]}";
  }

  private static byte[] padded(String json, int size) {
    byte[] body = new byte[size];
    Arrays.fill(body, (byte) ' ');
    byte[] text = json.getBytes(StandardCharsets.UTF_8);
    System.arraycopy(text, 0, body, 0, text.length);
    return body;
  }

  private static JsonNode assertError(HttpResponse<String> response, int status, String type)
      throws IOException {
    assertThat(response.statusCode())
        .as("status, body %s", abbreviate(response.body()))
        .isEqualTo(status);
    JsonNode error = JSON.readTree(response.body()).path("error");
    assertThat(error.path("code").asInt()).isEqualTo(status);
    assertThat(error.path("type").asText()).isEqualTo(type);
    return error;
  }

  private static String abbreviate(String text) {
    return text.length() < 300 ? text : text.substring(0, 300) + "…";
  }

  private static HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(floe.uri() + path))
        .timeout(Duration.ofSeconds(60))
        .header("Content-Type", "application/json");
  }

  private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        request(path).GET().timeout(Duration.ofSeconds(5)).build(), BodyHandlers.ofString());
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return send("POST", path, body);
  }

  private static HttpResponse<String> send(String method, String path, String body)
      throws Exception {
    return http.send(
        request(path)
            .method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body))
            .build(),
        BodyHandlers.ofString());
  }
}
