package dev.floe.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.FloeJson;
import dev.floe.projections.replay.StateDigests;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a running catalog's state over its REST API: every namespace (recursively) with its
 * properties, every table with its metadata location and document, as digests.
 */
final class LiveCatalog {
  private final HttpClient http = CliHttp.client();
  private final String url;
  private final String base;

  private final String token;

  /**
   * @param token the bearer token to send, or null
   */
  LiveCatalog(String url, String token) {
    this.url = url;
    this.base = url.replaceAll("/$", "");
    this.token = token;
  }

  /**
   * Returns when the catalog answers at all (its readiness check, whatever the answer), so that a
   * replay does not find out only after reading the whole log that there is nothing to compare
   * with.
   */
  void requireReachable() throws InterruptedException {
    CliHttp.send(
        http,
        HttpRequest.newBuilder(URI.create(base + "/health/ready")).GET().build(),
        HttpResponse.BodyHandlers.discarding(),
        url);
  }

  /** Digest of every namespace ({@code wh/ns}) and table ({@code wh/ns.t}) of one warehouse. */
  Map<String, String> digests(String warehouse) throws IOException, InterruptedException {
    Map<String, String> digests = new TreeMap<>();
    walk(warehouse, List.of(), digests);
    return digests;
  }

  private void walk(String warehouse, List<String> parent, Map<String, String> digests)
      throws IOException, InterruptedException {
    String query = parent.isEmpty() ? "" : "?parent=" + encode(String.join("\u001f", parent));
    for (JsonNode ns : get("/v1/" + encode(warehouse) + "/namespaces" + query).path("namespaces")) {
      List<String> levels = new ArrayList<>();
      ns.forEach(level -> levels.add(level.asText()));
      String path =
          "/v1/" + encode(warehouse) + "/namespaces/" + encode(String.join("\u001f", levels));
      Map<String, String> properties = new TreeMap<>();
      get(path)
          .path("properties")
          .fields()
          .forEachRemaining(e -> properties.put(e.getKey(), e.getValue().asText()));
      digests.put(warehouse + "/" + String.join(".", levels), StateDigests.namespace(properties));
      for (JsonNode table : get(path + "/tables").path("identifiers")) {
        String name = table.path("name").asText();
        JsonNode loaded = get(path + "/tables/" + encode(name));
        String location = loaded.path("metadata-location").asText();
        String json = FloeJson.mapper().writeValueAsString(loaded.path("metadata"));
        digests.put(
            warehouse + "/" + String.join(".", levels) + "." + name,
            StateDigests.table(location, json));
      }
      for (JsonNode view : get(path + "/views").path("identifiers")) {
        String name = view.path("name").asText();
        JsonNode loaded = get(path + "/views/" + encode(name));
        digests.put(
            warehouse + "/view:" + String.join(".", levels) + "." + name,
            StateDigests.view(
                loaded.path("metadata-location").asText(),
                FloeJson.mapper().writeValueAsString(loaded.path("metadata"))));
      }
      walk(warehouse, levels, digests);
    }
  }

  private JsonNode get(String path) throws InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).GET();
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    HttpResponse<byte[]> response =
        CliHttp.send(http, request.build(), HttpResponse.BodyHandlers.ofByteArray(), url);
    if (response.statusCode() != 200) {
      throw CliHttp.refused(
          response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
    }
    try {
      return FloeJson.mapper().readTree(response.body());
    } catch (IOException e) {
      throw new CliFailure(
          "unreadable answer to GET " + path + " (" + e.getMessage() + ")",
          "is " + url + " a Floe server?",
          e);
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
