package dev.floe.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a caller may name and send, against a running server: metrics reports only for tables that
 * exist. Each refusal is a 4xx with the ErrorModel and changes nothing.
 */
class InputBoundsIT {
  private static final String NS = "/v1/default/namespaces";
  private static final String REPORT =
      "{\"report-type\":\"commit-report\",\"table-name\":\"bounds.t\",\"snapshot-id\":1,"
          + "\"sequence-number\":1,\"operation\":\"append\",\"metrics\":{}}";

  @TempDir static Path dataDir;
  private static FloeProcess floe;

  @BeforeAll
  static void start() {
    floe = new FloeProcess(dataDir).start();
    send("POST", NS, "{\"namespace\":[\"bounds\"]}", 200);
    send("POST", NS + "/bounds/tables", createTable("t"), 200);
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (floe != null) {
      floe.close();
    }
  }

  @Test
  void metricsReportForAMissingTableIsNoSuchTableAndMintsNoSeries() {
    send("POST", NS + "/bounds/tables/t/metrics", REPORT, 204);
    for (int i = 0; i < 20; i++) {
      assertError(
          AuthHttp.send(
              floe.uri(), "POST", NS + "/bounds/tables/ghost" + i + "/metrics", null, REPORT),
          404,
          "NoSuchTableException");
    }
    assertError(
        AuthHttp.send(floe.uri(), "POST", NS + "/nowhere/tables/t/metrics", null, REPORT),
        404,
        "NoSuchTableException");
    String metrics = send("GET", "/metrics", null, 200).body();
    assertThat(metrics)
        .contains(
            "floe_metrics_reports_total{warehouse=\"default\",namespace=\"bounds\",table=\"t\","
                + "type=\"commit_report\"} 1")
        .doesNotContain("ghost")
        .doesNotContain("nowhere");
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
