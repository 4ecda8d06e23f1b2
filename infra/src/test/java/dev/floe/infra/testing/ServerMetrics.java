package dev.floe.infra.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Reads a running server's Prometheus metrics ({@code GET /metrics}, with its admin token). */
public final class ServerMetrics {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private ServerMetrics() {}

  /**
   * How many requests to routes whose template ends with {@code routeSuffix} the server answered
   * with {@code status} (the count of {@code floe_http_request_duration_seconds}).
   */
  public static long answered(FloeProcess floe, String routeSuffix, int status)
      throws IOException, InterruptedException {
    HttpResponse<String> metrics =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(floe.uri() + "/metrics"))
                .header("Authorization", "Bearer " + floe.adminToken())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (metrics.statusCode() != 200) {
      throw new IllegalStateException("GET /metrics answered " + metrics.statusCode());
    }
    String labels = routeSuffix + "\",status=\"" + status + "\"";
    return metrics
        .body()
        .lines()
        .filter(line -> line.startsWith("floe_http_request_duration_seconds_count{"))
        .filter(line -> line.contains(labels))
        .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .sum();
  }
}
