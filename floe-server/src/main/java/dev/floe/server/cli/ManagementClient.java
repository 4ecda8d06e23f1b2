package dev.floe.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
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
import picocli.CommandLine.Option;

/**
 * Sends one request of {@code floe principals|tokens|grants|visibility|deleted} to the management
 * API and prints the answer as the command does ({@link Output}). The token is sent only in the
 * Authorization header and never printed.
 */
final class ManagementClient {
  static final String BASE = "/management/v1";

  private ManagementClient() {}

  /** A request to the management API; {@code body} is null for none. */
  record Request(String method, String path, ObjectNode body) {}

  /** How a command prints the server's answer: its JSON, or null when the answer is empty. */
  @FunctionalInterface
  interface Printer {
    void print(JsonNode answer, PrintStream out);
  }

  /** {@code --json}: the server's answer as it came, for scripts. */
  static final class JsonOption {
    @Option(names = "--json", description = "print the server's JSON answer instead of text")
    boolean json;
  }

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

  /**
   * Sends the request and prints the answer: its JSON with {@code --json}, else as {@code printer}
   * says.
   */
  static int send(
      ServerOptions server, Request request, PrintStream out, JsonOption json, Printer printer)
      throws InterruptedException {
    JsonNode answer = call(server, request);
    if (json != null && json.json && answer != null) {
      Output.json(out, answer);
    } else {
      printer.print(answer, out);
    }
    return 0;
  }

  /** Sends the request: the answer's JSON, or null for an empty one; a refusal fails. */
  static JsonNode call(ServerOptions server, Request request) throws InterruptedException {
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
      throw CliHttp.refused(response.statusCode(), response.body());
    }
    if (response.body().isBlank()) {
      return null;
    }
    try {
      return FloeJson.mapper().readTree(response.body());
    } catch (IOException e) {
      throw new CliFailure(
          "unreadable answer from " + server.url + " (" + e.getMessage() + ")",
          "is that URL a Floe server?",
          e);
    }
  }
}
