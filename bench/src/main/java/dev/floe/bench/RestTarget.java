package dev.floe.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * One Iceberg REST catalog under test, spoken to over plain HTTP as any engine would: the prefix
 * comes from {@code /v1/config}, namespaces are joined with {@code %1F}.
 */
final class RestTarget {
  static final ObjectMapper JSON = new ObjectMapper();

  final String name;
  final String uri;
  final String warehouse;
  private final String base;
  private final HttpClient http;

  RestTarget(String name, String uri, String warehouse) {
    this.name = name;
    this.uri = uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
    this.warehouse = warehouse;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    String prefix = prefix();
    this.base = this.uri + "/v1/" + (prefix == null ? "" : prefix + "/");
  }

  private String prefix() {
    String query = warehouse == null ? "" : "?warehouse=" + encode(warehouse);
    Response config = send("GET", uri + "/v1/config" + query, null);
    if (config.status() != 200) {
      throw new IllegalStateException(name + ": GET /v1/config answered " + config.status());
    }
    JsonNode prefix = config.json().path("overrides").path("prefix");
    if (prefix.isMissingNode()) {
      prefix = config.json().path("defaults").path("prefix");
    }
    return prefix.isMissingNode() || prefix.asText().isEmpty() ? null : prefix.asText();
  }

  record Response(int status, String body) {
    JsonNode json() {
      try {
        return body == null || body.isEmpty() ? JSON.createObjectNode() : JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** {@code path} is relative to {@code /v1/<prefix>/}, e.g. {@code namespaces/a%1Fb/tables}. */
  Response call(String method, String path, String body) {
    return send(method, base + path, body);
  }

  Response send(String method, String url, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(response.statusCode(), response.body());
    } catch (IOException e) {
      return new Response(-1, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Response(-1, "interrupted");
    }
  }

  static String namespacePath(List<String> levels) {
    StringBuilder path = new StringBuilder();
    for (String level : levels) {
      if (path.length() > 0) {
        path.append("%1F");
      }
      path.append(encode(level));
    }
    return path.toString();
  }

  static String encode(String part) {
    return URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
