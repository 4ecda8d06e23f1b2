package dev.floe.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
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
 * {@code floe maintenance orphans}: a table's orphan files (under its location, reached by no
 * metadata, older than {@code --older-than}) through the management API ({@code
 * /management/v1/warehouses/{w}/namespaces/{ns}/tables/{t}/orphan-files}). A report: nothing is
 * deleted.
 */
@Command(
    name = "maintenance",
    description = "Table maintenance: list a table's orphan files (nothing is deleted).",
    subcommands = {MaintenanceCommand.Orphans.class, HelpCommand.class},
    footerHeading = "%nExample:%n",
    footer = "  floe maintenance orphans --warehouse default --table db.t --older-than P7D")
final class MaintenanceCommand {
  private MaintenanceCommand() {}

  /** {@code floe maintenance orphans}. */
  @Command(
      name = "orphans",
      description =
          "List the files under a table's location that no metadata of the table reaches and that"
              + " are older than --older-than (3 days by default). Needs manage on the table.",
      footerHeading = "%nExample:%n",
      footer = "  floe maintenance orphans --warehouse default --table db.orders --json")
  static final class Orphans implements Callable<Integer> {
    private final Streams streams;

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

    @Option(
        names = "--older-than",
        paramLabel = "DURATION",
        description = "only files older than this ISO-8601 duration (default P3D)")
    String olderThan;

    @Option(names = "--json", description = "print the answer's JSON instead of a table")
    boolean json;

    Orphans(Streams streams) {
      this.streams = streams;
    }

    @Override
    public Integer call() throws InterruptedException {
      int dot = table.lastIndexOf('.');
      if (dot <= 0 || dot == table.length() - 1 || table.contains("..")) {
        throw new ParameterException(
            spec.commandLine(), "Invalid --table: " + table + " (expected namespace.table)");
      }
      if (olderThan != null) {
        try {
          Duration.parse(olderThan);
        } catch (DateTimeParseException e) {
          throw new ParameterException(
              spec.commandLine(),
              "Invalid --older-than: " + olderThan + " (an ISO-8601 duration, such as P7D)");
        }
      }
      String path =
          "/management/v1/warehouses/"
              + enc(warehouse)
              + "/namespaces/"
              + enc(table.substring(0, dot).replace('.', '\u001f'))
              + "/tables/"
              + enc(table.substring(dot + 1))
              + "/orphan-files"
              + (olderThan == null ? "" : "?older-than=" + enc(olderThan));
      JsonNode answer =
          ManagementClient.call(server, new ManagementClient.Request("GET", path, null));
      if (json) {
        Output.json(streams.out(), answer);
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

  private static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
