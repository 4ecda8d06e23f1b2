package dev.floe.server.cli;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code floe latency}: sequential round trips against a running catalog, one at a time, so each
 * figure is one request's whole path (HTTP → Kafka → processor → committed transaction → reply).
 * Commits are requirement-free {@code set-properties} updates on one table; loads read it back.
 */
public final class LatencyProbe {
  private final HttpClient http = CliHttp.client();
  private final String url;

  /** The server's URL without a trailing slash. */
  private final String root;

  private final String token;

  private final String warehouse;

  private LatencyProbe(String url, String warehouse, String token) {
    this.url = url;
    this.warehouse = warehouse;
    this.root = url.replaceAll("/$", "");
    this.token = token;
  }

  /**
   * @param token the bearer token ({@code --token}, {@code $FLOE_TOKEN} or {@code
   *     ./floe-data/admin.token}), or null
   * @throws CliFailure when the server cannot be reached or refuses a request
   */
  static void run(String url, String warehouse, int count, String token, PrintStream out)
      throws InterruptedException {
    LatencyProbe probe =
        new LatencyProbe(url, warehouse, ClientToken.resolve(token, Path.of("floe-data")));
    String namespace = "latency_" + System.currentTimeMillis();
    probe.send("POST", "/namespaces", "{\"namespace\":[\"" + namespace + "\"]}");
    String tables = "/namespaces/" + namespace + "/tables";
    probe.send(
        "POST",
        tables,
        "{\"name\":\"t\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}");
    try {
      probe.measure(tables, count, out);
    } finally {
      probe.remove(namespace, tables, out);
    }
  }

  private void measure(String tables, int count, PrintStream out) throws InterruptedException {
    int warmup = Math.min(50, count);
    long[] commits = new long[count];
    long[] loads = new long[count];
    for (int i = -warmup; i < count; i++) {
      long started = System.nanoTime();
      send(
          "POST",
          tables + "/t",
          "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"n\":\""
              + i
              + "\"}}]}");
      long committed = System.nanoTime();
      send("GET", tables + "/t", null);
      long loaded = System.nanoTime();
      if (i >= 0) {
        commits[i] = committed - started;
        loads[i] = loaded - committed;
      }
    }
    out.println(summary("commit (set-properties)", commits));
    out.println(summary("loadTable", loads));
  }

  /**
   * Drops the probe's table (its files purged) and namespace, and ends their recovery period at
   * once where the token may (a warehouse admin's); otherwise they stay kept, as any drop is, and a
   * line says so.
   */
  private void remove(String namespace, String tables, PrintStream out)
      throws InterruptedException {
    try {
      send("DELETE", tables + "/t?purgeRequested=true", null);
      send("DELETE", "/namespaces/" + namespace, null);
      call(
          "POST",
          "/management/v1/warehouses/" + warehouse + "/deleted/expunge",
          "{\"kind\":\"namespace\",\"namespace\":[\"" + namespace + "\"]}");
    } catch (CliFailure e) {
      out.println(
          "note: the probe's namespace "
              + namespace
              + " is dropped but kept for the recovery period ("
              + e.getMessage()
              + ")");
    }
  }

  static String summary(String name, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return String.format(
        Locale.ROOT,
        "%-24s n=%d  p50=%.2f ms  p90=%.2f ms  p99=%.2f ms  max=%.2f ms",
        name,
        sorted.length,
        percentile(sorted, 50),
        percentile(sorted, 90),
        percentile(sorted, 99),
        sorted[sorted.length - 1] / 1e6);
  }

  static double percentile(long[] sorted, double p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
  }

  /** A request to the warehouse's catalog routes ({@code /v1/<warehouse>} + {@code path}). */
  private void send(String method, String path, String body) throws InterruptedException {
    call(method, "/v1/" + warehouse + path, body);
  }

  /** A request to the server's {@code path}. */
  private void call(String method, String path, String body) throws InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(root + path));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> response =
        CliHttp.send(http, request.build(), HttpResponse.BodyHandlers.ofString(), url);
    if (response.statusCode() >= 300) {
      throw CliHttp.refused(response.statusCode(), response.body());
    }
  }
}
