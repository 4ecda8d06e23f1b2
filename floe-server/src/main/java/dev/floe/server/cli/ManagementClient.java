package dev.floe.server.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Sends one request of {@code floe principals|tokens|grants|visibility} to the management API and
 * prints the answer: its JSON, indented, or {@code OK} for an empty one. The token is sent only in
 * the Authorization header and never printed.
 */
final class ManagementClient {
  static final String BASE = "/management/v1";

  private ManagementClient() {}

  /** A request to the management API; {@code body} is null for none. */
  record Request(String method, String path, ObjectNode body) {}

  static ObjectNode body() {
    return FloeJson.mapper().createObjectNode();
  }

  /** {@code /management/v1/warehouses/<warehouse>}. */
  static String warehouse(String warehouse) {
    return BASE + "/warehouses/" + enc(warehouse);
  }

  /** Puts the levels of {@code a.b} as an array field. */
  static void putNamespace(ObjectNode body, String namespace) {
    ArrayNode levels = body.putArray("namespace");
    for (String level : namespace.split("\\.")) {
      levels.add(level);
    }
  }

  static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Sends the request; prints the answer, or fails with the server's status and message. */
  static int send(ServerOptions server, Request request, PrintStream out)
      throws InterruptedException {
    String token = server.requiredToken();
    HttpRequest http =
        HttpRequest.newBuilder(URI.create(server.url + request.path()))
            .timeout(Duration.ofSeconds(60))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .method(
                request.method(),
                request.body() == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(request.body().toString()))
            .build();
    HttpResponse<String> response =
        CliHttp.send(CliHttp.client(), http, HttpResponse.BodyHandlers.ofString(), server.url);
    if (response.statusCode() / 100 != 2) {
      throw CliHttp.refused(
          response.statusCode(), "HTTP " + response.statusCode() + ": " + response.body());
    }
    out.println(response.body().isEmpty() ? "OK" : pretty(response.body()));
    return 0;
  }

  private static String pretty(String json) {
    try {
      return FloeJson.mapper()
          .writerWithDefaultPrettyPrinter()
          .writeValueAsString(FloeJson.mapper().readTree(json));
    } catch (IOException e) {
      return json;
    }
  }
}
