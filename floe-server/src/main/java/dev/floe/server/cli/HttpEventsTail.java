package dev.floe.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code floe events tail --url …}: the catalog's changes from a Floe server's events endpoint
 * instead of Kafka, so the tail needs no access to the cluster: the live stream ({@code
 * /events/stream}), or with {@code --to-end} the pages ({@code POST /events}) up to the end. It
 * prints what the token's principal may read, in the endpoint's shapes.
 */
final class HttpEventsTail {
  private static final String END = "\u0000end";

  private HttpEventsTail() {}

  /**
   * @return 0 when done
   * @throws CliFailure when the server cannot be reached or refuses the request
   */
  static int run(TailOptions options, PrintStream out) {
    String token = ClientToken.resolve(options.token(), options.dataDir());
    HttpClient client = CliHttp.client();
    String base = options.url().replaceAll("/+$", "") + "/v1/" + encode(options.warehouse());
    try {
      if (options.toEnd()) {
        return options.fromBeginning() ? pages(client, base, token, options, out) : 0;
      }
      return stream(client, base, token, options, out);
    } catch (IOException e) {
      throw new CliFailure(
          "cannot read the events of " + options.url() + " (" + e.getMessage() + ")",
          "is that URL a Floe server?",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  /** Every page from the start of the log to its end, then exits. */
  private static int pages(
      HttpClient client, String base, String token, TailOptions options, PrintStream out)
      throws IOException, InterruptedException {
    long printed = 0;
    String continuation = null;
    while (true) {
      ObjectNode body = filters(options);
      body.put("page-size", 1000);
      if (continuation != null) {
        body.put("continuation-token", continuation);
      }
      HttpResponse<String> response =
          CliHttp.send(
              client,
              request(base + "/events", token)
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                  .build(),
              HttpResponse.BodyHandlers.ofString(),
              options.url());
      if (response.statusCode() != 200) {
        throw CliHttp.refused(response.statusCode(), response.body());
      }
      JsonNode page = FloeJson.mapper().readTree(response.body());
      if (page.path("events").isEmpty()) {
        return 0;
      }
      for (JsonNode event : page.path("events")) {
        out.println(options.json() ? event.toString() : EventLines.line(event));
        if (++printed >= options.limit()) {
          return 0;
        }
      }
      continuation = page.path("continuation-token").asText();
    }
  }

  /** The live stream, until the limit, the idle timeout, or an interrupt. */
  private static int stream(
      HttpClient client, String base, String token, TailOptions options, PrintStream out)
      throws IOException, InterruptedException {
    StringBuilder query = new StringBuilder();
    filters(options)
        .fields()
        .forEachRemaining(
            field -> {
              if (field.getKey().equals("catalog-objects-by-name")) {
                for (JsonNode name : field.getValue()) {
                  List<String> levels = new ArrayList<>();
                  name.forEach(level -> levels.add(level.asText()));
                  param(query, field.getKey(), String.join("\u001f", levels));
                }
              } else {
                for (JsonNode value : field.getValue()) {
                  param(query, field.getKey(), value.asText());
                }
              }
            });
    if (options.fromBeginning()) {
      param(query, "since-timestamp-ms", "0");
    }
    HttpResponse<Stream<String>> response =
        CliHttp.send(
            client,
            request(base + "/events/stream" + query, token)
                .header("Accept", "text/event-stream")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofLines(),
            options.url());
    if (response.statusCode() != 200) {
      StringBuilder body = new StringBuilder();
      response.body().limit(20).forEach(body::append);
      throw CliHttp.refused(response.statusCode(), body.toString());
    }
    BlockingQueue<String> data = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try (Stream<String> lines = response.body()) {
                lines.filter(l -> l.startsWith("data: ")).forEach(l -> data.add(l.substring(6)));
              } catch (RuntimeException e) {
                // the stream ended or was closed
              }
              data.add(END);
            },
            "floe-events-tail-http");
    reader.setDaemon(true);
    reader.start();
    long printed = 0;
    while (printed < options.limit()) {
      String next =
          options.idleTimeout() == null
              ? data.take()
              : data.poll(options.idleTimeout().toMillis(), TimeUnit.MILLISECONDS);
      if (next == null || next.equals(END)) {
        break;
      }
      JsonNode event = FloeJson.mapper().readTree(next);
      out.println(options.json() ? event.toString() : EventLines.line(event));
      printed++;
    }
    response.body().close();
    return 0;
  }

  /** The tail's filters as the endpoint's: {@code --table}, {@code --namespace}, {@code --type}. */
  private static ObjectNode filters(TailOptions options) {
    ObjectNode body = FloeJson.mapper().createObjectNode();
    ArrayNode names = FloeJson.mapper().createArrayNode();
    for (String name : new String[] {options.table(), options.namespace()}) {
      if (name != null) {
        ArrayNode levels = names.addArray();
        for (String level : name.split("\\.")) {
          levels.add(level);
        }
      }
    }
    if (!names.isEmpty()) {
      body.set("catalog-objects-by-name", names);
    }
    if (!options.types().isEmpty()) {
      ArrayNode types = body.putArray("operation-types");
      options.types().stream().sorted().forEach(types::add);
    }
    return body;
  }

  private static HttpRequest.Builder request(String uri, String token) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(uri));
    if (token != null) {
      builder.header("Authorization", "Bearer " + token);
    }
    return builder;
  }

  private static void param(StringBuilder query, String name, String value) {
    query.append(query.length() == 0 ? '?' : '&').append(name).append('=').append(encode(value));
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
