package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.HostileBodies;
import dev.floe.server.it.support.RawHttp;
import dev.floe.server.it.support.SharedFloe;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a caller may name and send, against a running server: metrics reports counted only for
 * tables that exist; names of namespaces, tables and views, in paths and bodies, without control
 * characters, dot segments, invalid UTF-8 or more than 255 bytes; at most 1000 properties and 1 MiB
 * of them per request. Each refusal is a 4xx with the ErrorModel and changes nothing.
 */
class InputBoundsIT {
  private static final String NS = "/v1/default/namespaces";
  private static final String REPORT =
      "{\"report-type\":\"commit-report\",\"table-name\":\"bounds.t\",\"snapshot-id\":1,"
          + "\"sequence-number\":1,\"operation\":\"append\",\"metrics\":{}}";

  @RegisterExtension static final SharedFloe SHARED = SharedFloe.withAuthOff();

  private static FloeProcess floe;

  @BeforeAll
  static void start() {
    floe = SHARED.process();
    send("POST", NS, "{\"namespace\":[\"bounds\"]}", 200);
    send("POST", NS + "/bounds/tables", createTable("t"), 200);
  }

  @Test
  void metricsReportForAMissingTableIsAcceptedAndMintsNoSeries() {
    send("POST", NS + "/bounds/tables/t/metrics", REPORT, 204);
    for (int i = 0; i < 20; i++) {
      send("POST", NS + "/bounds/tables/ghost" + i + "/metrics", REPORT, 204);
    }
    send("POST", NS + "/nowhere/tables/t/metrics", REPORT, 204);
    String metrics = send("GET", "/metrics", null, 200).body();
    assertThat(metrics)
        .contains(
            "floe_metrics_reports_total{warehouse=\"default\",namespace=\"bounds\",table=\"t\","
                + "type=\"commit_report\"} 1")
        .doesNotContain("ghost")
        .doesNotContain("nowhere");
  }

  @Test
  void controlCharactersDotSegmentsAndInvalidUtf8InPathsAreBadRequests() throws Exception {
    for (String path :
        List.of(
            NS + "/bounds/tables/t%0D%0AX-Forged:%201",
            NS + "/bounds/tables/t%0Ax",
            NS + "/bounds/tables/t%7Fx",
            NS + "/bounds/tables/t%C2%85x",
            NS + "/bounds/tables/%2e%2e",
            NS + "/bounds/tables/.",
            NS + "/bounds/tables/..",
            NS + "/bounds%1F%2E%2E/tables/t",
            NS + "/%2E",
            NS + "/bounds/tables/%C0%AE%C0%AE",
            NS + "/bounds/tables/t%FF",
            NS + "/bounds/tables/t%EF%BF%BD")) {
      RawHttp.Response response =
          RawHttp.exchange(
              URI.create(floe.uri()),
              ("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII),
              false,
              10_000);
      assertThat(response.status()).as(path).isEqualTo(400);
      assertThat(new String(response.body(), StandardCharsets.UTF_8))
          .contains("\"type\":\"BadRequestException\"");
    }
  }

  /**
   * A body must be well-formed UTF-8: an overlong form ({@code C0 AF}, a disguised {@code /}) is
   * refused, never decoded into a name no check saw.
   */
  @Test
  void overlongUtf8InABodyIsABadRequestAndCreatesNothing() throws Exception {
    String tables = get(NS + "/bounds/tables").body();
    byte[] head = "{\"name\":\"ov".getBytes(StandardCharsets.US_ASCII);
    byte[] tail = ("l\",\"schema\":" + HostileBodies.SCHEMA + "}").getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[head.length + 2 + tail.length];
    System.arraycopy(head, 0, body, 0, head.length);
    body[head.length] = (byte) 0xC0;
    body[head.length + 1] = (byte) 0xAF;
    System.arraycopy(tail, 0, body, head.length + 2, tail.length);
    byte[] request =
        ("POST "
                + NS
                + "/bounds/tables HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                + "Content-Type: application/json\r\nContent-Length: "
                + body.length
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] whole = new byte[request.length + body.length];
    System.arraycopy(request, 0, whole, 0, request.length);
    System.arraycopy(body, 0, whole, request.length, body.length);

    RawHttp.Response response = RawHttp.exchange(URI.create(floe.uri()), whole, false, 10_000);

    String answer = new String(response.body(), StandardCharsets.UTF_8);
    assertThat(response.status()).as(answer).isEqualTo(400);
    assertThat(answer).contains("\"type\":\"BadRequestException\"", "UTF-8");
    assertThat(get(NS + "/bounds/tables").body()).isEqualTo(tables);
  }

  @Test
  void namesAndLevelsOver255BytesAreBadRequestsNotServerErrors() {
    String long256 = "n".repeat(256);
    assertError(get(NS + "/" + long256), 400, "BadRequestException");
    assertError(get(NS + "/bounds/tables/" + long256), 400, "BadRequestException");
    assertError(get(NS + "/bounds/views/" + "é".repeat(128)), 400, "BadRequestException");
    assertError(
        post(NS, "{\"namespace\":[\"bounds\",\"" + long256 + "\"]}"), 400, "BadRequestException");
    assertError(post(NS + "/bounds/tables", createTable(long256)), 400, "BadRequestException");
    assertThat(get(NS + "/bounds/tables").body()).doesNotContain(long256);
    send("POST", NS, "{\"namespace\":[\"" + "l".repeat(255) + "\"]}", 200);
  }

  @Test
  void bodyNamesAreCheckedLikePathNamesAndNothingIsCreated() {
    String before = get(NS + "?parent=bounds").body();
    assertError(post(NS, "{\"namespace\":[\"bounds\",\"..\"]}"), 400, "BadRequestException");
    assertError(post(NS, "{\"namespace\":[\"bounds\",\"a\\r\\nb\"]}"), 400, "BadRequestException");
    assertError(post(NS, "{\"namespace\":[\"bounds\",\"\\u0085\"]}"), 400, "BadRequestException");
    assertError(post(NS + "/bounds/tables", createTable(".")), 400, "BadRequestException");
    assertError(post(NS + "/bounds/tables", createTable("x\\u0000y")), 400, "BadRequestException");
    assertError(
        post(
            "/v1/default/tables/rename",
            "{\"source\":{\"namespace\":[\"bounds\"],\"name\":\"t\"},"
                + "\"destination\":{\"namespace\":[\"bounds\"],\"name\":\"..\"}}"),
        400,
        "BadRequestException");
    assertThat(get(NS + "?parent=bounds").body()).isEqualTo(before);
    assertThat(get(NS + "/bounds/tables").body()).contains("\"t\"").doesNotContain("\"..\"");
  }

  @Test
  void namesWithDotsAndSlashesStillWork() {
    send("POST", NS, "{\"namespace\":[\"bounds\",\"a.b\"]}", 200);
    send("POST", NS + "/bounds%1Fa.b/tables", createTable("c/d.e"), 200);
    send("GET", NS + "/bounds%1Fa.b/tables/c%2Fd.e", null, 200);
  }

  @Test
  void propertiesPastThePerRequestBoundsAreBadRequestsAndChangeNothing() {
    String tooMany = properties(1001, 1);
    String namespaces = get(NS).body();
    assertError(
        post(NS, "{\"namespace\":[\"props\"],\"properties\":" + tooMany + "}"),
        400,
        "BadRequestException");
    // 400,000 properties (6 MB, under the 10 MiB body limit) used to hold the processor 4.5 s.
    assertError(
        post(NS, "{\"namespace\":[\"props\"],\"properties\":" + properties(400_000, 1) + "}"),
        400,
        "BadRequestException");
    assertError(
        post(NS + "/bounds/properties", "{\"updates\":" + properties(2, 600_000) + "}"),
        400,
        "BadRequestException");
    assertError(
        post(
            NS + "/bounds/tables",
            "{\"name\":\"p\",\"schema\":"
                + HostileBodies.SCHEMA
                + ",\"properties\":"
                + tooMany
                + "}"),
        400,
        "BadRequestException");
    String table = get(NS + "/bounds/tables/t").body();
    assertError(
        post(
            NS + "/bounds/tables/t",
            "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":"
                + tooMany
                + "}]}"),
        400,
        "BadRequestException");
    assertThat(get(NS).body()).isEqualTo(namespaces);
    assertThat(get(NS + "/bounds").body()).doesNotContain("k0");
    assertThat(get(NS + "/bounds/tables/t").body()).isEqualTo(table);
    assertThat(get(NS + "/bounds/tables").body()).doesNotContain("\"p\"");
    send("POST", NS + "/bounds/properties", "{\"updates\":" + properties(1000, 1) + "}", 200);
  }

  /**
   * Locations storage can never take are the client's error (400), not a storage outage (503, which
   * clients retry): a segment longer than a file name may be, a path through a symbolic link
   * planted inside the warehouse. Nothing is written, neither there nor where the link points.
   */
  @Test
  void locationsStorageCannotTakeAre400AndWriteNothing() throws Exception {
    Path area = Path.of(URI.create(floe.warehouseRoot())).resolve("bounds");
    Path elsewhere = Files.createTempDirectory(Path.of("target"), "link-target-");
    Files.createDirectories(area);
    Files.createSymbolicLink(area.resolve("planted"), elsewhere.toAbsolutePath());
    String tables = get(NS + "/bounds/tables").body();

    for (String location :
        List.of(
            floe.warehouseRoot() + "/bounds/" + "s".repeat(256),
            floe.warehouseRoot() + "/bounds/" + "é".repeat(128) + "/t",
            floe.warehouseRoot() + "/bounds/planted/t")) {
      assertError(
          post(
              NS + "/bounds/tables",
              "{\"name\":\"placed\",\"location\":\""
                  + location
                  + "\",\"schema\":"
                  + HostileBodies.SCHEMA
                  + "}"),
          400,
          "BadRequestException");
    }

    assertThat(get(NS + "/bounds/tables").body()).isEqualTo(tables);
    try (Stream<Path> written = Files.list(elsewhere)) {
      assertThat(written).as("nothing written through the link").isEmpty();
    }
    send("POST", NS + "/bounds/tables", createTable("placed"), 200);
  }

  /** {@code {"k0":"v…", …}}: this many properties, each value this long. */
  private static String properties(int count, int valueChars) {
    StringBuilder json = new StringBuilder("{");
    String value = "v".repeat(valueChars);
    for (int i = 0; i < count; i++) {
      json.append(i == 0 ? "" : ",")
          .append("\"k")
          .append(i)
          .append("\":\"")
          .append(value)
          .append('"');
    }
    return json.append('}').toString();
  }

  private static AuthHttp.Response get(String path) {
    return AuthHttp.send(floe.uri(), "GET", path, null, null);
  }

  private static AuthHttp.Response post(String path, String body) {
    return AuthHttp.send(floe.uri(), "POST", path, null, body);
  }

  static String createTable(String name) {
    return "{\"name\":\"" + name + "\",\"schema\":" + HostileBodies.SCHEMA + "}";
  }

  static AuthHttp.Response send(String method, String path, String body, int status) {
    return AuthHttp.expect(status, floe.uri(), method, path, null, body);
  }

  static void assertError(AuthHttp.Response response, int status, String type) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    assertThat(response.json().path("error").path("code").asInt()).isEqualTo(status);
    assertThat(response.json().path("error").path("type").asText()).isEqualTo(type);
  }
}
