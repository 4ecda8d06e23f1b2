package dev.floe.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code floe maintenance expire|orphans|status}: a table's snapshot expiry ({@code
 * …/expire-snapshots}), orphan files report ({@code …/orphan-files}, nothing deleted) and
 * maintenance status ({@code …/maintenance}) through the management API ({@code
 * /management/v1/warehouses/{w}/namespaces/{ns}/tables/{t}}).
 */
@Command(
    name = "maintenance",
    description =
        "Table maintenance: expire a table's snapshots and delete the files only they reached;"
            + " list a table's orphan files (nothing is deleted); show a table's maintenance.",
    subcommands = {
      MaintenanceCommand.Expire.class,
      MaintenanceCommand.Orphans.class,
      MaintenanceCommand.Status.class,
      HelpCommand.class
    },
    footerHeading = "%nExample:%n",
    footer = "  floe maintenance orphans --warehouse default --table db.t --older-than P7D")
final class MaintenanceCommand {
  private MaintenanceCommand() {}

  /** What every maintenance command names: the server, the table, and how to print. */
  abstract static class TableAction implements Callable<Integer> {
    final Streams streams;

    @Spec CommandSpec spec;

    @Mixin ServerOptions server;

    @Option(names = "--warehouse", required = true, paramLabel = "W", description = "the warehouse")
    String warehouse;

    @Option(
        names = "--table",
        required = true,
        paramLabel = "a.b.t",
        description = "the table, its namespace's levels and its name joined by dots")
    String table;

    @Option(names = "--json", description = "print the answer's JSON")
    boolean json;

    TableAction(Streams streams) {
      this.streams = streams;
    }

    /** The answer to {@code method} on the table's route {@code suffix}, JSON printed if asked. */
    JsonNode call(String method, String suffix, ObjectNode body) throws InterruptedException {
      int dot = table.lastIndexOf('.');
      if (dot <= 0 || dot == table.length() - 1 || table.contains("..")) {
        throw new ParameterException(
            spec.commandLine(), "Invalid --table: " + table + " (expected namespace.table)");
      }
      String path =
          "/management/v1/warehouses/"
              + enc(warehouse)
              + "/namespaces/"
              + enc(table.substring(0, dot).replace('.', '\u001f'))
              + "/tables/"
              + enc(table.substring(dot + 1))
              + suffix;
      JsonNode answer =
          ManagementClient.call(server, new ManagementClient.Request(method, path, body));
      if (json) {
        Output.json(streams.out(), answer);
      }
      return answer;
    }

    Duration duration(String option, String value) {
      try {
        return Duration.parse(value);
      } catch (DateTimeParseException e) {
        throw new ParameterException(
            spec.commandLine(),
            "Invalid " + option + ": " + value + " (an ISO-8601 duration, such as P7D)");
      }
    }
  }

  /** {@code floe maintenance orphans}. */
  @Command(
      name = "orphans",
      description =
          "List the files under a table's location that no metadata of the table reaches and that"
              + " are older than --older-than (3 days by default). Needs manage on the table.",
      footerHeading = "%nExample:%n",
      footer = "  floe maintenance orphans --warehouse default --table db.orders --json")
  static final class Orphans extends TableAction {
    @Option(
        names = "--older-than",
        paramLabel = "DURATION",
        description = "only files older than this ISO-8601 duration (default P3D)")
    String olderThan;

    Orphans(Streams streams) {
      super(streams);
    }

    @Override
    public Integer call() throws InterruptedException {
      if (olderThan != null) {
        duration("--older-than", olderThan);
      }
      JsonNode answer =
          call(
              "GET",
              "/orphan-files" + (olderThan == null ? "" : "?older-than=" + enc(olderThan)),
              null);
      if (json) {
        return 0;
      }
      List<List<String>> rows = new ArrayList<>();
      answer
          .path("orphan-files")
          .forEach(
              f ->
                  rows.add(
                      List.of(
                          f.path("location").asText(),
                          f.path("size-in-bytes").asText(),
                          Output.time(
                              Instant.parse(f.path("created-at").asText()).toEpochMilli()))));
      Output.table(
          streams.out(),
          List.of("LOCATION", "BYTES", "CREATED-AT"),
          rows,
          "(no orphan files older than " + answer.path("older-than").asText() + ")");
      if (answer.path("truncated").asBoolean()) {
        Output.line(streams.out(), "(more orphan files than listed)");
      }
      return 0;
    }
  }

  /** {@code floe maintenance status}. */
  @Command(
      name = "status",
      description =
          "Show whether the catalog maintains a table on its schedule, and its last maintenance"
              + " run. Needs read on the table.",
      footerHeading = "%nExample:%n",
      footer = "  floe maintenance status --warehouse default --table db.orders")
  static final class Status extends TableAction {
    Status(Streams streams) {
      super(streams);
    }

    @Override
    public Integer call() throws InterruptedException {
      JsonNode answer = call("GET", "/maintenance", null);
      if (json) {
        return 0;
      }
      JsonNode schedule = answer.path("schedule");
      Output.line(
          streams.out(),
          (schedule.path("scheduled").asBoolean() ? "scheduled every " : "not scheduled (every ")
              + schedule.path("interval").asText()
              + (schedule.path("scheduled").asBoolean() ? "" : ")")
              + ": "
              + schedule.path("because").asText());
      JsonNode last = answer.path("last-run");
      if (last.isNull() || last.isMissingNode()) {
        Output.line(streams.out(), "no maintenance run recorded");
        return 0;
      }
      Output.line(
          streams.out(),
          "last run "
              + Output.time(Instant.parse(last.path("at").asText()).toEpochMilli())
              + " ("
              + last.path("trigger").asText()
              + ", by "
              + last.path("principal").asText()
              + "): "
              + last.path("expired-snapshots").asInt()
              + " snapshots expired, "
              + last.path("remaining-snapshots").asInt()
              + " remain; "
              + last.path("deleted-files").asLong()
              + " files ("
              + last.path("deleted-bytes").asLong()
              + " bytes) deleted");
      return 0;
    }
  }

  /** {@code floe maintenance expire}. */
  @Command(
      name = "expire",
      description =
          "Expire a table's snapshots now by Iceberg's rules: the table's history.expire.*"
              + " properties unless --older-than or --retain-last is given. A commit by you;"
              + " needs manage on the table. Then deletes the files only the expired snapshots"
              + " reached, inside the table's location (--keep-files leaves them).",
      footerHeading = "%nExample:%n",
      footer = "  floe maintenance expire --warehouse default --table db.t --dry-run")
  static final class Expire extends TableAction {
    @Option(
        names = "--older-than",
        paramLabel = "DURATION",
        description = "expire snapshots older than this ISO-8601 duration ago")
    String olderThan;

    @Option(
        names = "--retain-last",
        paramLabel = "N",
        description = "keep at least this many snapshots of each branch")
    Integer retainLast;

    @Option(
        names = "--dry-run",
        description = "only say which snapshots and files would go; change nothing")
    boolean dryRun;

    @Option(names = "--keep-files", description = "expire snapshots but delete no file")
    boolean keepFiles;

    Expire(Streams streams) {
      super(streams);
    }

    @Override
    public Integer call() throws InterruptedException {
      ObjectNode body = FloeJson.mapper().createObjectNode();
      body.put("dry-run", dryRun);
      body.put("clean-files", !keepFiles);
      if (olderThan != null) {
        body.put(
            "older-than-ms",
            System.currentTimeMillis() - duration("--older-than", olderThan).toMillis());
      }
      if (retainLast != null) {
        if (retainLast < 1) {
          throw new ParameterException(spec.commandLine(), "--retain-last must be at least 1");
        }
        body.put("retain-last", retainLast);
      }
      JsonNode answer = call("POST", "/expire-snapshots", body);
      if (json) {
        return 0;
      }
      List<String> ids = new ArrayList<>();
      answer.path("expired-snapshot-ids").forEach(id -> ids.add(id.asText()));
      Output.line(
          streams.out(),
          (dryRun ? "would expire " : "expired ")
              + ids.size()
              + " snapshots of "
              + table
              + (ids.isEmpty() ? "" : ": " + String.join(", ", ids))
              + "; "
              + answer.path("remaining-snapshots").asInt()
              + " remain"
              + (keepFiles
                  ? ""
                  : "; "
                      + (dryRun ? "would delete " : "deleted ")
                      + answer.path("deleted-files").asLong()
                      + " files ("
                      + answer.path("deleted-bytes").asLong()
                      + " bytes)"));
      return 0;
    }
  }

  private static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
