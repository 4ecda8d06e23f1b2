package dev.floe.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One Iceberg REST catalog under test, spoken to over plain HTTP/1.1 ({@link Http1}) as any engine
 * would: the prefix and the namespace separator ({@code %1F} unless {@code namespace-separator}
 * overrides it) come from {@code /v1/config}.
 */
final class RestTarget {
  static final ObjectMapper JSON = new ObjectMapper();

  final String name;
  final String uri;
  final String warehouse;
  private final String base;
  private final Http1 http;
  final String separator;

  /** The bearer token sent with every request, or null. */
  final String token;

  /**
   * The endpoints {@code /v1/config} lists ({@code "POST /v1/{prefix}/events"}), or null when it
   * lists none: then a client assumes the specification's default set.
   */
  private final Set<String> endpoints;

  /**
   * The server's processes on this machine, for their CPU time ({@link ServerCpu#treeNanos}); empty
   * when not known.
   */
  final List<Long> serverPids;

  RestTarget(String name, String uri, String warehouse, String token) {
    this(name, uri, warehouse, token, List.of());
  }

  RestTarget(String name, String uri, String warehouse, String token, List<Long> serverPids) {
    this.name = name;
    this.token = token;
    this.serverPids = List.copyOf(serverPids);
    this.uri = uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
    this.warehouse = warehouse;
    this.http = new Http1();
    String query = warehouse == null ? "" : "?warehouse=" + encode(warehouse);
    Response config = send("GET", this.uri + "/v1/config" + query, null);
    if (config.status() == -1) {
      throw new IllegalStateException(name + ": cannot reach " + this.uri + ": " + config.body());
    }
    if (config.status() != 200) {
      throw new IllegalStateException(
          name
              + ": GET /v1/config answered "
              + config.status()
              + (config.status() == 401 ? " (give the target a token-file=PATH)" : ""));
    }
    String prefix = setting(config.json(), "prefix");
    this.base = this.uri + "/v1/" + (prefix == null ? "" : prefix + "/");
    String separator = setting(config.json(), "namespace-separator");
    this.separator = separator == null ? "%1F" : separator;
    JsonNode listed = config.json().path("endpoints");
    if (listed.isArray()) {
      Set<String> names = new HashSet<>();
      listed.forEach(endpoint -> names.add(endpoint.asText()));
      this.endpoints = names;
    } else {
      this.endpoints = null;
    }
  }

  /**
   * Whether the catalog says it serves {@code endpoint} (e.g. {@code "POST /v1/{prefix}/events"}):
   * listed in {@code /v1/config}; one that lists nothing serves only the default set, in which no
   * endpoint a caller would ask about here is.
   */
  boolean serves(String endpoint) {
    return endpoints != null && endpoints.contains(endpoint);
  }

  private static String setting(JsonNode config, String key) {
    JsonNode value = config.path("overrides").path(key);
    if (value.isMissingNode()) {
      value = config.path("defaults").path(key);
    }
    return value.isMissingNode() || value.asText().isEmpty() ? null : value.asText();
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

  /** The address {@link #call} sends {@code path} to. */
  URI uriOf(String path) {
    return URI.create(base + path);
  }

  Response send(String method, String url, String body) {
    try {
      return http.send(method, URI.create(url), body, token);
    } catch (IOException e) {
      return new Response(-1, e.toString());
    }
  }

  String namespacePath(List<String> levels) {
    StringBuilder path = new StringBuilder();
    for (String level : levels) {
      if (path.length() > 0) {
        path.append(separator);
      }
      path.append(encode(level));
    }
    return path.toString();
  }

  static String encode(String part) {
    return URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
