package dev.floe.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code floe bench}: runs the same workloads against one or more Iceberg REST catalogs,
 * alternating between them workload by workload, and writes the figures as JSON (and, with {@code
 * --report}, as the Markdown of docs/benchmarks.md).
 *
 * <pre>
 * floe bench --target floe=http://localhost:8181,default --target peer=http://localhost:8182
 *            [--duration 15] [--warmup 20] [--clients 4] [--width 4] [--depth 2]
 *            [--tables 5] [--properties 3]
 *            [--open-loop-rate 200] [--big-snapshots 10000] [--many-tables 10000]
 *            [--hot-writers 4,16,32] [--only name,...] [--json out.json] [--report out.md]
 *            [--notes notes.md]
 * </pre>
 */
public final class Bench {
  private Bench() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    List<String> targets = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("Expected --option value, got " + arg);
      }
      String value = args[++i];
      if (arg.equals("--target")) {
        targets.add(value);
      } else {
        options.put(arg.substring(2), value);
      }
    }
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("Name at least one --target name=uri[,warehouse]");
    }
    Workloads.Settings settings =
        new Workloads.Settings(
            intOption(options, "width", 4),
            intOption(options, "depth", 2),
            intOption(options, "tables", 5),
            intOption(options, "properties", 3),
            intOption(options, "clients", 4),
            intOption(options, "duration", 15),
            intOption(options, "warmup", 20),
            intOption(options, "open-loop-rate", 200),
            intOption(options, "big-snapshots", 10_000),
            intOption(options, "many-tables", 10_000),
            java.util.Arrays.stream(options.getOrDefault("hot-writers", "4,16,32").split(","))
                .map(String::trim)
                .map(Integer::parseInt)
                .toList());
    List<String> only =
        options.containsKey("only") ? List.of(options.get("only").split(",")) : List.of();

    List<Workloads> runs = new ArrayList<>();
    Map<String, Map<String, Object>> results = new LinkedHashMap<>();
    for (String spec : targets) {
      String name = spec.substring(0, spec.indexOf('='));
      // name=URI[,WAREHOUSE[,token-file=PATH]]
      String[] rest = spec.substring(spec.indexOf('=') + 1).split(",", 3);
      String warehouse = rest.length > 1 && !rest[1].isEmpty() ? rest[1] : null;
      String token = null;
      if (rest.length > 2 && rest[2].startsWith("token-file=")) {
        token =
            java.nio.file.Files.readString(Path.of(rest[2].substring("token-file=".length())))
                .trim();
      }
      RestTarget target = new RestTarget(name, rest[0], warehouse, token);
      runs.add(new Workloads(target, settings));
      results.put(name, new LinkedHashMap<>());
    }
    for (int i = 0; i < runs.size(); i++) {
      String name = targets.get(i).substring(0, targets.get(i).indexOf('='));
      System.err.printf("%s: create-tree%n", name);
      results.get(name).put("create-tree", runs.get(i).setUp().toMap());
    }
    List<String> workloads = runs.get(0).names();
    for (int w = 0; w < workloads.size(); w++) {
      String workload = workloads.get(w);
      if (!only.isEmpty() && !only.contains(workload)) {
        continue;
      }
      // Alternate which catalog goes first, so neither always runs on a warmer machine.
      for (int k = 0; k < runs.size(); k++) {
        int i = (w % 2 == 0) ? k : runs.size() - 1 - k;
        String name = targets.get(i).substring(0, targets.get(i).indexOf('='));
        System.err.printf("%s: %s%n", name, workload);
        Stats stats = runs.get(i).run(workload);
        results.get(name).put(workload, stats.toMap());
        System.err.printf(
            "%s: %s %.1f ops/s, p50 %.2f ms, p99 %.2f ms, %d errors, %d conflicts%n",
            name,
            workload,
            stats.opsPerSecond(),
            stats.percentileMillis(0.5),
            stats.percentileMillis(0.99),
            stats.errors(),
            stats.conflicts());
      }
    }

    for (int i = 0; i < runs.size(); i++) {
      // What setting up the big table and the many tables measured (many-tables-create).
      String name = targets.get(i).substring(0, targets.get(i).indexOf('='));
      results.get(name).putAll(runs.get(i).setUpResults());
    }
    ObjectNode document = RestTarget.JSON.createObjectNode();
    document.put("date", java.time.OffsetDateTime.now().toString());
    document.set("machine", RestTarget.JSON.valueToTree(Machine.describe()));
    document.set("settings", RestTarget.JSON.valueToTree(settings));
    document.set("options", RestTarget.JSON.valueToTree(options));
    document.set("targets", RestTarget.JSON.valueToTree(targets));
    document.set("results", RestTarget.JSON.valueToTree(results));
    String json = RestTarget.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(document);
    if (options.containsKey("json")) {
      Files.writeString(Path.of(options.get("json")), json);
    } else {
      System.out.println(json);
    }
    if (options.containsKey("report")) {
      String notes =
          options.containsKey("notes") ? Files.readString(Path.of(options.get("notes"))) : "";
      Files.writeString(Path.of(options.get("report")), Report.markdown(document, notes));
    }
  }

  private static int intOption(Map<String, String> options, String name, int fallback) {
    return options.containsKey(name) ? Integer.parseInt(options.get(name)) : fallback;
  }
}
