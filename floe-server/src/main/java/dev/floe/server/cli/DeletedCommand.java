package dev.floe.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import dev.floe.server.logging.ControlCharacters;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code floe deleted list|restore|expunge}: the dropped tables, views and namespaces a warehouse
 * keeps for its recovery period, through the management API ({@code
 * /management/v1/warehouses/{w}/deleted}). A table or view is named by {@code --namespace} and
 * {@code --table} or {@code --view}; a dropped namespace by {@code --namespace} alone. The token is
 * resolved as for the other management commands ({@link ServerOptions}).
 */
@Command(
    name = "deleted",
    description =
        "List, restore and expunge the dropped tables, views and namespaces a warehouse keeps for"
            + " its recovery period.",
    subcommands = {
      DeletedCommand.ListDeleted.class,
      DeletedCommand.Restore.class,
      DeletedCommand.Expunge.class,
      HelpCommand.class
    },
    footerHeading = "%nExample:%n",
    footer = "  floe deleted list --warehouse default --namespace db")
final class DeletedCommand {
  private static final List<String> COLUMNS =
      List.of(
          "KIND", "NAMESPACE", "NAME", "UUID", "DELETED-AT", "EXPIRES-AT", "DELETED-BY", "PURGE");

  private DeletedCommand() {}

  /** What one invocation sends, and how its answer is printed. */
  record Request(String verb, String method, String path, ObjectNode body, boolean json) {}

  /** One of list, restore and expunge: sends its request and prints the answer. */
  abstract static class Action implements Callable<Integer> {
    private final Streams streams;

    @Spec CommandSpec spec;

    @Mixin ServerOptions server;

    @Option(names = "--warehouse", required = true, paramLabel = "W", description = "the warehouse")
    String warehouse;

    Action(Streams streams) {
      this.streams = streams;
    }

    /** The request this command line sends; a bad combination of options is refused. */
    abstract Request request();

    String base() {
      return "/management/v1/warehouses/" + enc(warehouse) + "/deleted";
    }

    @Override
    public Integer call() throws InterruptedException {
      Request request;
      try {
        request = request();
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      JsonNode answer =
          ManagementClient.call(
              server,
              new ManagementClient.Request(request.method(), request.path(), request.body()));
      print(request, answer, streams.out());
      return 0;
    }
  }

  /** {@code floe deleted list}: the dropped entities kept, as a table or as JSON. */
  @Command(
      name = "list",
      description =
          "List the dropped tables, views and namespaces kept in a namespace (with the namespace"
              + " itself if it is a dropped one), or in the whole warehouse.",
      footerHeading = "%nExample:%n",
      footer = "  floe deleted list --warehouse default --namespace db --json")
  static final class ListDeleted extends Action {
    @Option(
        names = "--namespace",
        paramLabel = "a.b",
        description = "only what is kept in this namespace")
    String namespace;

    @Option(names = "--json", description = "print the answer's JSON instead of a table")
    boolean json;

    ListDeleted(Streams streams) {
      super(streams);
    }

    @Override
    Request request() {
      String query =
          namespace == null ? "" : "?namespace=" + enc(String.join("\u001f", levels(namespace)));
      return new Request("list", "GET", base() + query, null, json);
    }
  }

  /** What restore and expunge act on: a dropped table or view, or a dropped namespace. */
  abstract static class TargetAction extends Action {
    @Option(
        names = "--namespace",
        required = true,
        paramLabel = "a.b",
        description = "the namespace of the table or view; alone, the dropped namespace itself")
    String namespace;

    @Option(names = "--table", paramLabel = "T", description = "a dropped table")
    String table;

    @Option(names = "--view", paramLabel = "V", description = "a dropped view")
    String view;

    @Option(
        names = "--uuid",
        paramLabel = "U",
        description = "which of several dropped tables or views of that name")
    String uuid;

    TargetAction(Streams streams) {
      super(streams);
    }

    /** The body naming the target, refusing options that need a table or view without one. */
    ObjectNode target(Map<String, Object> tableOnly) {
      if (table != null && view != null) {
        throw new IllegalArgumentException(
            "Give at most one of --table and --view (none to name the dropped namespace itself)");
      }
      boolean namespaceOnly = table == null && view == null;
      ObjectNode body = FloeJson.mapper().createObjectNode();
      body.put("kind", namespaceOnly ? "namespace" : table != null ? "table" : "view");
      ArrayNode levels = body.putArray("namespace");
      levels(namespace).forEach(levels::add);
      if (namespaceOnly) {
        tableOnly.forEach(
            (flag, value) -> {
              if (value != null) {
                throw new IllegalArgumentException(
                    flag
                        + " needs --table or --view: a dropped namespace is named by --namespace"
                        + " alone and restored in place");
              }
            });
        return body;
      }
      body.put("name", table != null ? table : view);
      if (uuid != null) {
        body.put("uuid", uuid);
      }
      return body;
    }
  }

  /** {@code floe deleted restore}: brings a dropped table, view or namespace back. */
  @Command(
      name = "restore",
      description = {
        "Restore a dropped table or view (--table or --view), or a dropped namespace (--namespace"
            + " alone), which comes back in place: its parent must exist."
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  floe deleted restore --warehouse default --namespace db --table orders --as v1",
        "  floe deleted restore --warehouse default --namespace db.staging"
      })
  static final class Restore extends TargetAction {
    @Option(names = "--as", paramLabel = "NEW", description = "restore under this name")
    String as;

    Restore(Streams streams) {
      super(streams);
    }

    @Override
    Request request() {
      Map<String, Object> tableOnly = new LinkedHashMap<>();
      tableOnly.put("--uuid", uuid);
      tableOnly.put("--as", as);
      ObjectNode body = target(tableOnly);
      if (as != null) {
        body.put("as", as);
      }
      return new Request("restore", "POST", base() + "/restore", body, false);
    }
  }

  /** {@code floe deleted expunge}: ends a dropped entity's recovery period now. */
  @Command(
      name = "expunge",
      description =
          "End the recovery period of a dropped table or view, or of a dropped namespace with"
              + " everything kept inside it.",
      footerHeading = "%nExample:%n",
      footer = "  floe deleted expunge --warehouse default --namespace db --table orders")
  static final class Expunge extends TargetAction {
    @Option(names = "--retain-data", description = "keep the files of the tables")
    boolean retainData;

    Expunge(Streams streams) {
      super(streams);
    }

    @Override
    Request request() {
      Map<String, Object> tableOnly = new LinkedHashMap<>();
      tableOnly.put("--uuid", uuid);
      ObjectNode body = target(tableOnly);
      body.put("retain-data", retainData);
      return new Request("expunge", "POST", base() + "/expunge", body, false);
    }
  }

  /** Prints the answer to {@code request} as the command does. */
  static void print(Request request, JsonNode json, PrintStream out) {
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
      Output.json(out, json);
      return;
    }
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode entity : json.path("deleted")) {
      rows.add(
          List.of(
              entity.path("kind").asText(),
              namespace(entity.path("namespace")),
              orDash(entity, "name"),
              orDash(entity, "uuid"),
              Output.time(entity.path("deleted-at-ms").asLong()),
              Output.time(entity.path("expires-at-ms").asLong()),
              entity.path("deleted-by").asText(),
              entity.path("purge-requested").asBoolean() ? "yes" : "no"));
    }
    Output.table(out, COLUMNS, rows, "(no dropped tables, views or namespaces are kept)");
  }

  private static List<String> levels(String namespace) {
    List<String> levels = List.of(namespace.split("\\.", -1));
    if (namespace.isEmpty() || levels.stream().anyMatch(String::isEmpty)) {
      throw new IllegalArgumentException("Invalid --namespace: " + namespace);
    }
    return levels;
  }

  private static String namespace(JsonNode levels) {
    return Output.namespace(levels);
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

  private static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
