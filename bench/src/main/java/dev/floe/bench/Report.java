package dev.floe.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

/** Turns a run's JSON into docs/benchmarks.md: both catalogs side by side, and the targets. */
final class Report {
  private Report() {}

  /**
   * Prints the Markdown of a run's JSON file ({@code floe bench --json}); a second file, {@link
   * KafkaFloor}'s {@code --json}, adds its figures to the first catalog's column.
   */
  public static void main(String[] args) throws IOException {
    // A run of its own, its header and one table: --compare, two configurations of one catalog
    // (bench/object-storage.sh); --events, --fairness and --planning, those workloads alone
    // (--only).
    Map<String, BiConsumer<StringBuilder, JsonNode>> single =
        Map.of(
            "--compare",
            Report::table,
            "--events",
            WorkloadSections::events,
            "--fairness",
            WorkloadSections::fairness,
            "--planning",
            WorkloadSections::planning);
    if (single.containsKey(args[0])) {
      JsonNode run = RestTarget.JSON.readTree(Files.readString(Path.of(args[1])));
      StringBuilder md = new StringBuilder();
      header(md, run);
      single.get(args[0]).accept(md, run.path("results"));
      System.out.print(md);
      return;
    }
    JsonNode run = RestTarget.JSON.readTree(Files.readString(Path.of(args[0])));
    if (args.length > 1) {
      ObjectNode floor = (ObjectNode) RestTarget.JSON.readTree(Files.readString(Path.of(args[1])));
      JsonNode results = run.path("results");
      ((ObjectNode) results.path(results.fieldNames().next())).setAll(floor);
    }
    System.out.print(markdown(run, ""));
  }

  /** The run's date, machine, catalogs and settings. */
  private static void header(StringBuilder md, JsonNode run) {
    md.append("- Date: ").append(run.path("date").asText()).append('\n');
    JsonNode machine = run.path("machine");
    md.append(
        String.format(
            Locale.ROOT,
            "- Machine: %d cores (%s), %d GiB, %s, %s%n",
            machine.path("cores").asInt(),
            machine.path("cpu").asText(),
            machine.path("memoryGiB").asLong(),
            machine.path("os").asText(),
            machine.path("java").asText()));
    md.append("- Catalogs: ");
    for (Iterator<JsonNode> it = run.path("targets").elements(); it.hasNext(); ) {
      md.append('`').append(it.next().asText()).append('`').append(it.hasNext() ? ", " : "\n");
    }
    md.append("- Settings: `").append(run.path("settings").toString()).append("`\n\n");
  }

  /** Both catalogs' figures side by side, workload by workload. */
  private static void table(StringBuilder md, JsonNode results) {
    List<String> names = new ArrayList<>();
    results.fieldNames().forEachRemaining(names::add);
    String floe = names.get(0);
    String peer = names.size() > 1 ? names.get(1) : "peer";
    md.append("Latencies in milliseconds; ops/s are successful operations per second; × is ")
        .append(floe)
        .append("'s throughput over ")
        .append(peer)
        .append("'s, measured in the same run.\n\n");
    md.append("| workload | ")
        .append(floe)
        .append(" ops/s | ")
        .append(peer)
        .append(" ops/s | × | ")
        .append(floe)
        .append(" p50 / p90 / p99 / p99.9 / max | ")
        .append(peer)
        .append(" p50 / p90 / p99 / p99.9 / max | ")
        .append(floe)
        .append(" errors / 409 | ")
        .append(peer)
        .append(" errors / 409 | ")
        .append(floe)
        .append(" CPU-ms/op (cores) | ")
        .append(peer)
        .append(" CPU-ms/op (cores) | CPU × |\n");
    md.append("|---|---:|---:|---:|---|---|---|---|---:|---:|---:|\n");
    for (Iterator<String> it = results.path(floe).fieldNames(); it.hasNext(); ) {
      String workload = it.next();
      if (workload.equals(Workloads.EVENTS)
          || workload.equals(Fairness.WORKLOAD)
          || workload.equals(ScanPlans.FIRST)
          || workload.equals(IDLE)) {
        continue; // a table of its own (events, fairness, planning), a line of its own (idle)
      }
      JsonNode a = results.path(floe).path(workload);
      JsonNode b = results.path(peer).path(workload);
      md.append("| ")
          .append(workload)
          .append(" | ")
          .append(num(a.path("opsPerSecond").asDouble()))
          .append(" | ")
          .append(b == null || b.isMissingNode() ? "—" : num(b.path("opsPerSecond").asDouble()))
          .append(" | ")
          .append(ratio(a, b))
          .append(" | ")
          .append(latencies(a))
          .append(" | ")
          .append(latencies(b))
          .append(" | ")
          .append(failures(a))
          .append(" | ")
          .append(failures(b))
          .append(" | ")
          .append(cpu(a))
          .append(" | ")
          .append(cpu(b))
          .append(" | ")
          .append(cpuRatio(a, b))
          .append(" |\n");
    }
    md.append('\n');
    for (String name : names) {
      JsonNode idle = results.path(name).path(IDLE);
      md.append("Idle, before the first workload: ")
          .append(name)
          .append(' ')
          .append(
              idle.path("cores").isNumber()
                  ? String.format(
                      Locale.ROOT,
                      "%.2f %% of a core over %d s",
                      100 * idle.path("cores").asDouble(),
                      idle.path("seconds").asInt())
                  : "not measured")
          .append(".\n");
    }
  }

  /** The catalog's CPU milliseconds per successful operation and the cores it kept busy. */
  private static String cpu(JsonNode stats) {
    if (stats == null || !stats.path("serverCpuMsPerOp").isNumber()) {
      return "—";
    }
    return num(stats.path("serverCpuMsPerOp").asDouble())
        + String.format(Locale.ROOT, " (%.2f)", stats.path("serverCores").asDouble());
  }

  private static String cpuRatio(JsonNode a, JsonNode b) {
    double ratio = cpuRatioOf(a, b);
    return Double.isNaN(ratio) ? "—" : String.format(Locale.ROOT, "%.2f×", ratio);
  }

  /** The first catalog's CPU per operation over the second's, NaN when either was not measured. */
  private static double cpuRatioOf(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return Double.NaN;
    }
    JsonNode x = a.path("serverCpuMsPerOp");
    JsonNode y = b.path("serverCpuMsPerOp");
    return x.isNumber() && y.isNumber() && y.asDouble() > 0
        ? x.asDouble() / y.asDouble()
        : Double.NaN;
  }

  /** The idle CPU measured before the first workload, a result of its own in the JSON. */
  static final String IDLE = "idle";

  static String markdown(JsonNode run, String notes) {
    JsonNode results = run.path("results");
    List<String> names = new ArrayList<>();
    results.fieldNames().forEachRemaining(names::add);
    String floe = names.get(0);
    String peer = names.size() > 1 ? names.get(1) : "peer";
    StringBuilder md = new StringBuilder();
    md.append("# Benchmarks\n\n");
    md.append(
        "Generated by `bench/run.sh` (which runs `floe bench`); do not edit the tables by"
            + " hand.\n\n");
    header(md, run);
    table(md, results);
    if (results.path(floe).has(Workloads.EVENTS)) {
      md.append("\n## Reading the event log (`events`)\n\n");
      WorkloadSections.events(md, results);
    }
    if (results.path(floe).has(Fairness.WORKLOAD)) {
      md.append("\n## One tenant's large commits and another's small ones (`fairness`)\n\n");
      WorkloadSections.fairness(md, results);
    }
    md.append("\n## Targets\n\n");
    md.append("| target | measured | verdict |\n|---|---|---|\n");
    JsonNode f = results.path(floe);
    JsonNode p = results.has(peer) ? results.path(peer) : null;
    atMost(
        md,
        "server CPU per commit across many tables at 4 clients ≤ 0.5× the peer's",
        p == null
            ? Double.NaN
            : cpuRatioOf(f.path("commit-many-tables"), p.path("commit-many-tables")),
        0.5,
        "×");
    atMost(
        md,
        "server CPU per loadTable at 4 clients ≤ 0.2× the peer's",
        p == null ? Double.NaN : cpuRatioOf(f.path("load-table"), p.path("load-table")),
        0.2,
        "×");
    atLeast(
        md,
        "loadTable throughput at 4 clients ≥ 80 % of a server that does nothing, answering "
            + floe
            + "'s loadTable body to as many clients (`"
            + Workloads.NOOP_SERVER
            + "`)",
        100
            * value(f, "load-table", "opsPerSecond")
            / value(f, Workloads.NOOP_SERVER, "opsPerSecond"),
        80,
        "%");
    atLeast(
        md,
        "commits across many tables at 4 clients ≥ 80 % of "
            + floe
            + "'s commit path with the catalog taken out (`kafka-floor-commit-4`,"
            + " bench/src/main/java/dev/floe/bench/KafkaFloor.java)",
        100
            * value(f, "commit-many-tables", "opsPerSecond")
            / value(f, "kafka-floor-commit-4", "opsPerSecond"),
        80,
        "%");
    atMost(md, "loadTable p99 at 4 clients ≤ 5 ms", value(f, "load-table", "p99"), 5, "ms");
    atMost(md, "one client's commit p50 ≤ 10 ms", value(f, "commit-1", "p50"), 10, "ms");
    atMost(md, "one client's commit p99 ≤ 30 ms", value(f, "commit-1", "p99"), 30, "ms");
    if (p != null && p.has("commit-1")) {
      atMost(
          md,
          "one client's commit p50 ≤ the peer's (" + num(value(p, "commit-1", "p50")) + " ms)",
          value(f, "commit-1", "p50"),
          value(p, "commit-1", "p50"),
          "ms");
    }
    for (Iterator<String> it = f.fieldNames(); it.hasNext(); ) {
      String workload = it.next();
      if (workload.startsWith("hot-table-")) {
        JsonNode hot = f.path(workload);
        atLeast(
            md,
            workload + ": ≥ 100 successful commits/s",
            hot.path("opsPerSecond").asDouble(),
            100,
            "/s");
        atMost(md, workload + ": no 409", hot.path("conflicts").asDouble(), 0, "409s");
      }
    }
    atMost(
        md,
        "10,000-snapshot table, snapshots=refs p50 ≤ 5 ms",
        value(f, "big-table-refs", "p50"),
        5,
        "ms");
    atMost(
        md,
        "10,000-snapshot table, snapshots=all p50 ≤ 50 ms",
        value(f, "big-table-all", "p50"),
        50,
        "ms");
    md.append('\n');
    md.append(notes);
    return md.toString();
  }

  static String figures(JsonNode stats, String... fields) {
    List<String> figures = new ArrayList<>();
    for (String field : fields) {
      figures.add(optional(stats.path(field)));
    }
    return String.join(" / ", figures);
  }

  /** A figure, or "not measured" when the run had none (no pid-file for the server's CPU). */
  static String optional(JsonNode value) {
    return value.isNumber() ? num(value.asDouble()) : "not measured";
  }

  /** A figure of a workload, or NaN when the workload was not run. */
  private static double value(JsonNode target, String workload, String field) {
    JsonNode node = target == null ? null : target.path(workload).path(field);
    return node == null || node.isMissingNode() || !node.isNumber() ? Double.NaN : node.asDouble();
  }

  private static void atLeast(
      StringBuilder md, String target, double value, double bound, String unit) {
    verdict(md, target, value, value >= bound, "≥ " + num(bound) + " " + unit, unit);
  }

  private static void atMost(
      StringBuilder md, String target, double value, double bound, String unit) {
    verdict(md, target, value, value <= bound, "≤ " + num(bound) + " " + unit, unit);
  }

  private static void verdict(
      StringBuilder md, String target, double value, boolean met, String bound, String unit) {
    if (Double.isNaN(value)) {
      md.append("| ").append(target).append(" | not measured | — |\n");
      return;
    }
    md.append("| ")
        .append(target)
        .append(" | ")
        .append(num(value))
        .append(' ')
        .append(unit)
        .append(" | ")
        .append(met ? "met" : "not met (target " + bound + ")")
        .append(" |\n");
  }

  private static String ratio(JsonNode a, JsonNode b) {
    if (b == null || b.isMissingNode()) {
      return "—";
    }
    double peer = b.path("opsPerSecond").asDouble();
    if (peer == 0) {
      return "∞";
    }
    return String.format(Locale.ROOT, "%.1f×", a.path("opsPerSecond").asDouble() / peer);
  }

  static String latencies(JsonNode stats) {
    if (stats == null || stats.isMissingNode()) {
      return "—";
    }
    List<String> figures = new ArrayList<>();
    for (String field : List.of("p50", "p90", "p99", "p999", "max")) {
      JsonNode value = stats.path(field);
      figures.add(value.isNumber() ? num(value.asDouble()) : "—");
    }
    return String.join(" / ", figures);
  }

  private static String failures(JsonNode stats) {
    if (stats == null || stats.isMissingNode()) {
      return "—";
    }
    return stats.path("errors").asLong() + " / " + stats.path("conflicts").asLong();
  }

  static String num(double value) {
    if (Double.isNaN(value)) {
      return "—";
    }
    if (value >= 100) {
      return String.format(Locale.ROOT, "%.0f", value);
    }
    if (value >= 10) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    return String.format(Locale.ROOT, "%.2f", value);
  }
}
