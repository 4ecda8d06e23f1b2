package dev.floe.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import dev.floe.server.logging.ControlCharacters;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code floe deleted list|restore|expunge}: the dropped tables, views and namespaces a warehouse
 * keeps for its recovery period, through the management API ({@code
 * /management/v1/warehouses/{w}/deleted}). A table or view is named by {@code --namespace} and
 * {@code --table} or {@code --view}; a dropped namespace by {@code --namespace} alone. The token is
 * resolved as for {@link ManageCommand}.
 */
public final class DeletedCommand {
  static final String USAGE =
      """
Usage: floe deleted list --warehouse W [--namespace a.b] [--json]
       floe deleted restore --warehouse W --namespace a.b (--table T | --view V) [--uuid U] [--as NEW]
       floe deleted restore --warehouse W --namespace a.b
       floe deleted expunge --warehouse W --namespace a.b (--table T | --view V) [--uuid U] [--retain-data]
       floe deleted expunge --warehouse W --namespace a.b [--retain-data]
  list shows the dropped tables, views and namespaces kept in a.b (with a.b itself if it is a
  dropped one), or in the whole warehouse. Without --table or --view, restore and expunge act on
  the dropped namespace a.b: restore brings it back in place (its parent must exist); expunge ends
  its recovery period with everything kept inside it (--retain-data keeps its tables' files).
  every command also takes --url http://localhost:8181 and --token T (default: $FLOE_TOKEN,
  else ./floe-data/admin.token)
""";

  private static final Set<String> SWITCHES = Set.of("--json", "--retain-data");
  private static final Set<String> COMMON = Set.of("--url", "--token", "--warehouse");
  private static final Map<String, Set<String>> ALLOWED =
      Map.of(
          "list", Set.of("--namespace", "--json"),
          "restore", Set.of("--namespace", "--table", "--view", "--uuid", "--as"),
          "expunge", Set.of("--namespace", "--table", "--view", "--uuid", "--retain-data"));
  private static final List<String> COLUMNS =
      List.of(
          "KIND", "NAMESPACE", "NAME", "UUID", "DELETED-AT", "EXPIRES-AT", "DELETED-BY", "PURGE");

  private DeletedCommand() {}

  /** What one invocation sends, and how its answer is printed. */
  record Request(String verb, String method, String path, ObjectNode body, boolean json) {}

  /** {@code args} are those after {@code deleted}; returns the process's exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 1 && (args[0].equals("help") || args[0].equals("--help"))) {
      out.print(USAGE);
      return 0;
    }
    Map<String, String> flags;
    Request request;
    try {
      flags = flags(args);
      request = request(args[0], flags);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.print(USAGE);
      return 2;
    }
    String url = flags.getOrDefault("--url", "http://localhost:8181");
    String token = ClientToken.resolve(flags.get("--token"), Path.of("floe-data"));
    if (token == null) {
      err.println("No token: pass --token, set FLOE_TOKEN, or run where floe-data/admin.token is");
      return 2;
    }
    HttpResponse<String> response;
    try {
      response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(url + request.path()))
                      .timeout(Duration.ofSeconds(60))
                      .header("Authorization", "Bearer " + token)
                      .header("Content-Type", "application/json")
                      .method(
                          request.method(),
                          request.body() == null
                              ? HttpRequest.BodyPublishers.noBody()
                              : HttpRequest.BodyPublishers.ofString(request.body().toString()))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
    } catch (IOException | IllegalArgumentException e) {
      err.println("Cannot reach " + url + ": " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
    if (response.statusCode() / 100 != 2) {
      err.println(ControlCharacters.escape(errorMessage(response.statusCode(), response.body())));
      return 1;
    }
    try {
      print(request, response.body(), out);
    } catch (IOException e) {
      err.println("Unreadable answer from " + url + ": " + response.body());
      return 1;
    }
    return 0;
  }

  static Map<String, String> flags(String[] args) {
    if (args.length == 0) {
      throw new IllegalArgumentException("Missing command: list, restore or expunge");
    }
    String verb = args[0];
    Set<String> allowed = ALLOWED.get(verb);
    if (allowed == null) {
      throw new IllegalArgumentException("Unknown command: floe deleted " + verb);
    }
    Map<String, String> flags = new HashMap<>();
    for (int i = 1; i < args.length; i++) {
      String flag = args[i];
      if (!COMMON.contains(flag) && !allowed.contains(flag)) {
        throw new IllegalArgumentException(
            flag.startsWith("--")
                ? "Unknown option for floe deleted " + verb + ": " + flag
                : "Unexpected argument: " + flag);
      }
      String value;
      if (SWITCHES.contains(flag)) {
        value = "true";
      } else if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
        throw new IllegalArgumentException("Missing value for " + flag);
      } else {
        value = args[++i];
      }
      if (flags.put(flag, value) != null) {
        throw new IllegalArgumentException("Repeated option: " + flag);
      }
    }
    return flags;
  }

  static Request request(String verb, Map<String, String> flags) {
    String base = "/management/v1/warehouses/" + enc(required(flags, "--warehouse")) + "/deleted";
    if (verb.equals("list")) {
      String namespace = flags.get("--namespace");
      String query =
          namespace == null ? "" : "?namespace=" + enc(String.join("\u001f", levels(namespace)));
      return new Request(verb, "GET", base + query, null, flags.containsKey("--json"));
    }
    ObjectNode body = FloeJson.mapper().createObjectNode();
    String table = flags.get("--table");
    String view = flags.get("--view");
    if (table != null && view != null) {
      throw new IllegalArgumentException(
          "Give at most one of --table and --view (none to name the dropped namespace itself)");
    }
    boolean namespaceOnly = table == null && view == null;
    if (namespaceOnly) {
      for (String flag : List.of("--uuid", "--as")) {
        if (flags.containsKey(flag)) {
          throw new IllegalArgumentException(
              flag
                  + " needs --table or --view: a dropped namespace is named by --namespace alone"
                  + " and restored in place");
        }
      }
    }
    body.put("kind", namespaceOnly ? "namespace" : table != null ? "table" : "view");
    ArrayNode namespace = body.putArray("namespace");
    levels(required(flags, "--namespace")).forEach(namespace::add);
    if (!namespaceOnly) {
      body.put("name", table != null ? table : view);
    }
    if (flags.containsKey("--uuid")) {
      body.put("uuid", flags.get("--uuid"));
    }
    if (verb.equals("restore")) {
      if (flags.containsKey("--as")) {
        body.put("as", flags.get("--as"));
      }
      return new Request(verb, "POST", base + "/restore", body, false);
    }
    body.put("retain-data", flags.containsKey("--retain-data"));
    return new Request(verb, "POST", base + "/expunge", body, false);
  }

  /** Prints the answer to {@code request} as the command does. */
  static void print(Request request, String answer, PrintStream out) throws IOException {
    if (request.verb().equals("expunge")) {
      ObjectNode body = request.body();
      if (isNamespace(body)) {
        out.println(
            ControlCharacters.escape(
                "Expunged namespace "
                    + namespace(body.path("namespace"))
                    + " and everything kept inside it"
                    + (body.path("retain-data").asBoolean()
                        ? " (the files of its tables are kept)"
                        : "")));
        return;
      }
      out.println(
          ControlCharacters.escape(
              "Expunged "
                  + body.path("kind").asText()
                  + " "
                  + qualified(body.path("namespace"), body.path("name").asText())
                  + (body.path("retain-data").asBoolean() ? " (its files are kept)" : "")));
      return;
    }
    JsonNode json = FloeJson.mapper().readTree(answer);
    if (request.verb().equals("restore")) {
      if (isNamespace(json)) {
        Map<String, String> properties = new TreeMap<>();
        json.path("properties")
            .properties()
            .forEach(property -> properties.put(property.getKey(), property.getValue().asText()));
        out.println(
            ControlCharacters.escape(
                "Restored namespace "
                    + namespace(json.path("namespace"))
                    + (properties.isEmpty() ? "" : " with properties " + properties)));
        return;
      }
      out.println(
          ControlCharacters.escape(
              "Restored "
                  + json.path("kind").asText()
                  + " "
                  + qualified(json.path("namespace"), json.path("name").asText())
                  + " (uuid "
                  + json.path("uuid").asText()
                  + ")"));
      return;
    }
    if (request.json()) {
      out.println(FloeJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(json));
      return;
    }
    List<List<String>> rows = new ArrayList<>();
    rows.add(COLUMNS);
    for (JsonNode entity : json.path("deleted")) {
      rows.add(
          List.of(
              entity.path("kind").asText(),
              namespace(entity.path("namespace")),
              orDash(entity, "name"),
              orDash(entity, "uuid"),
              Instant.ofEpochMilli(entity.path("deleted-at-ms").asLong()).toString(),
              Instant.ofEpochMilli(entity.path("expires-at-ms").asLong()).toString(),
              entity.path("deleted-by").asText(),
              entity.path("purge-requested").asBoolean() ? "yes" : "no"));
    }
    out.print(table(rows));
    if (rows.size() == 1) {
      out.println("(no dropped tables, views or namespaces are kept)");
    }
  }

  /**
   * Left-aligned columns two spaces apart, no trailing blanks; control characters in a cell (names
   * and principals are what callers sent) come out escaped.
   */
  static String table(List<List<String>> cells) {
    List<List<String>> rows =
        cells.stream().map(row -> row.stream().map(ControlCharacters::escape).toList()).toList();
    int[] widths = new int[rows.get(0).size()];
    for (List<String> row : rows) {
      for (int c = 0; c < row.size(); c++) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.size(); c++) {
        line.append(c == 0 ? "" : "  ").append(row.get(c));
        if (c < row.size() - 1) {
          line.append(" ".repeat(widths[c] - row.get(c).length()));
        }
      }
      text.append(line.toString().stripTrailing()).append('\n');
    }
    return text.toString();
  }

  /** The ErrorModel's type and message, or the raw body when it is not one. */
  static String errorMessage(int status, String body) {
    try {
      JsonNode error = FloeJson.mapper().readTree(body).path("error");
      if (error.hasNonNull("message")) {
        String type = error.path("type").asText("");
        return "HTTP "
            + status
            + (type.isEmpty() ? "" : " " + type)
            + ": "
            + error.path("message").asText();
      }
    } catch (IOException e) {
      // not JSON: printed as it came
    }
    return "HTTP " + status + (body.isBlank() ? "" : ": " + body);
  }

  private static List<String> levels(String namespace) {
    List<String> levels = List.of(namespace.split("\\.", -1));
    if (namespace.isEmpty() || levels.stream().anyMatch(String::isEmpty)) {
      throw new IllegalArgumentException("Invalid --namespace: " + namespace);
    }
    return levels;
  }

  private static String namespace(JsonNode levels) {
    List<String> names = new ArrayList<>();
    levels.forEach(level -> names.add(level.asText()));
    return String.join(".", names);
  }

  private static boolean isNamespace(JsonNode node) {
    return node.path("kind").asText().equals("namespace");
  }

  /** A field's text, or {@code -} where the entry has none (a namespace's name and uuid). */
  private static String orDash(JsonNode entity, String field) {
    return entity.hasNonNull(field) ? entity.path(field).asText() : "-";
  }

  private static String qualified(JsonNode namespace, String name) {
    return namespace(namespace) + "." + name;
  }

  private static String required(Map<String, String> flags, String name) {
    String value = flags.get(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("Missing " + name);
    }
    return value;
  }

  private static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
