package dev.floe.server.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a client can see of one warehouse, read over HTTP: every namespace (recursively,
 * through every page) with its properties, and every table's metadata location and properties. Two
 * snapshots are equal when nothing visible changed.
 */
public record CatalogSnapshot(
    Map<String, Map<String, String>> namespaces, Map<String, TableView> tables) {
  /** What identifies a table's state: a commit writes a new metadata file. */
  public record TableView(String metadataLocation, String uuid, Map<String, String> properties) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  public static CatalogSnapshot take(HttpClient http, String server, String warehouse)
      throws Exception {
    Map<String, Map<String, String>> namespaces = new TreeMap<>();
    Map<String, TableView> tables = new TreeMap<>();
    String base = server + "/v1/" + warehouse;
    List<List<String>> pending = new ArrayList<>(children(http, base, List.of()));
    while (!pending.isEmpty()) {
      List<String> namespace = pending.remove(pending.size() - 1);
      String path = base + "/namespaces/" + encode(namespace);
      namespaces.put(String.join(".", namespace), properties(get(http, path).path("properties")));
      for (String table : pagedNames(http, path + "/tables", "identifiers")) {
        JsonNode loaded =
            get(http, path + "/tables/" + URLEncoder.encode(table, StandardCharsets.UTF_8));
        tables.put(
            String.join(".", namespace) + "." + table,
            new TableView(
                loaded.path("metadata-location").asText(),
                loaded.path("metadata").path("table-uuid").asText(),
                properties(loaded.path("metadata").path("properties"))));
      }
      pending.addAll(children(http, base, namespace));
    }
    return new CatalogSnapshot(namespaces, tables);
  }

  private static List<List<String>> children(HttpClient http, String base, List<String> parent)
      throws Exception {
    List<List<String>> children = new ArrayList<>();
    String query = parent.isEmpty() ? "" : "parent=" + encode(parent) + "&";
    String token = null;
    do {
      JsonNode page =
          get(
              http,
              base
                  + "/namespaces?"
                  + query
                  + "pageSize=50"
                  + (token == null ? "" : "&pageToken=" + urlEncode(token)));
      for (JsonNode namespace : page.path("namespaces")) {
        List<String> levels = new ArrayList<>();
        namespace.forEach(level -> levels.add(level.asText()));
        children.add(levels);
      }
      token = nextToken(page);
    } while (token != null);
    return children;
  }

  private static List<String> pagedNames(HttpClient http, String url, String field)
      throws Exception {
    List<String> names = new ArrayList<>();
    String token = null;
    do {
      JsonNode page =
          get(http, url + "?pageSize=50" + (token == null ? "" : "&pageToken=" + urlEncode(token)));
      page.path(field).forEach(id -> names.add(id.path("name").asText()));
      token = nextToken(page);
    } while (token != null);
    return names;
  }

  private static String nextToken(JsonNode page) {
    JsonNode next = page.path("next-page-token");
    return next.isMissingNode() || next.isNull() ? null : next.asText();
  }

  private static Map<String, String> properties(JsonNode node) {
    Map<String, String> properties = new TreeMap<>();
    node.fields().forEachRemaining(e -> properties.put(e.getKey(), e.getValue().asText()));
    return properties;
  }

  private static JsonNode get(HttpClient http, String url)
      throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "GET " + url + " answered " + response.statusCode() + ": " + response.body());
    }
    return JSON.readTree(response.body());
  }

  /** A namespace in a path: each level encoded, levels joined by the spec's %1F. */
  public static String encode(List<String> namespace) {
    List<String> levels = new ArrayList<>();
    namespace.forEach(level -> levels.add(urlEncode(level)));
    return String.join("%1F", levels);
  }

  private static String urlEncode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
