package dev.floe.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code floe bench}: runs the same workloads against one or more Iceberg REST catalogs,
 * alternating between them workload by workload, and writes the figures as JSON (and, with {@code
 * --report}, as the Markdown of docs/benchmarks.md).
 *
 * <p>The command line is {@link BenchCommand}'s ({@code floe bench --help}); {@code bin/floe bench}
 * runs it.
 */
public final class Bench {
  private Bench() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && List.of("--help", "-h", "help").contains(args[0])) {
      System.out.print(BenchCommand.usage());
      return;
    }
    BenchCommand command;
    try {
      command = BenchCommand.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("floe bench: " + e.getMessage());
      System.err.print(BenchCommand.usage());
      System.exit(2);
      return;
    }
    run(command);
  }

  private static void run(BenchCommand command) throws Exception {
    Map<String, String> options = command.options();
    Workloads.Settings settings = command.settings();
    List<String> only = command.only();
    List<String> targets = command.targets().stream().map(BenchCommand.Target::spec).toList();
    List<Workloads> runs = new ArrayList<>();
    Map<String, Map<String, Object>> results = new LinkedHashMap<>();
    for (BenchCommand.Target target : command.targets()) {
      RestTarget catalog;
      RestTarget noisy;
      try {
        catalog = target.connect();
        noisy = target.noisyWarehouse() == null ? catalog : target.connectNoisy();
      } catch (IllegalStateException e) {
        System.err.println("floe bench: " + e.getMessage());
        System.exit(1);
        return;
      }
      runs.add(new Workloads(catalog, noisy, settings));
      results.put(target.name(), new LinkedHashMap<>());
    }
    int idle = command.idleSeconds();
    for (int i = 0; i < runs.size(); i++) {
      String name = command.targets().get(i).name();
      if (idle > 0 && !command.targets().get(i).serverPids().isEmpty()) {
        double cores = runs.get(i).idleCores(idle);
        System.err.printf("%s: idle %.4f cores over %d s%n", name, cores, idle);
        results.get(name).put("idle", Map.of("cores", cores, "seconds", idle));
      }
    }
    for (int i = 0; i < runs.size(); i++) {
      String name = command.targets().get(i).name();
      System.err.printf("%s: create-tree%n", name);
      results.get(name).put("create-tree", runs.get(i).setUp().toMap());
    }
    List<String> workloads = runs.get(0).names();
    for (int w = 0; w < workloads.size(); w++) {
      String workload = workloads.get(w);
      // Signing needs a warehouse that signs (bench/signing.sh), scan planning storage settings
      // for the client (bench/planning.sh): measured only when asked for.
      boolean asked = only.contains(workload);
      if ((!only.isEmpty() && !asked) || (Workloads.ON_REQUEST.contains(workload) && !asked)) {
        continue;
      }
      // Alternate which catalog goes first, so neither always runs on a warmer machine.
      for (int k = 0; k < runs.size(); k++) {
        int i = (w % 2 == 0) ? k : runs.size() - 1 - k;
        String name = command.targets().get(i).name();
        System.err.printf("%s: %s%n", name, workload);
        if (workload.equals(Fairness.WORKLOAD)) {
          results.get(name).put(workload, runs.get(i).fairness());
          continue;
        }
        if (workload.equals(Workloads.EVENTS)) {
          // One result per page size, or why the catalog was not measured (Report.events).
          results.get(name).put(workload, runs.get(i).events());
          continue;
        }
        Stats stats = runs.get(i).run(workload);
        results.get(name).put(workload, stats.toMap());
        System.err.printf(
            "%s: %s %.1f ops/s, p50 %.2f ms, p99 %.2f ms, %d errors, %d conflicts, server %.3f"
                + " CPU-ms/op%n",
            name,
            workload,
            stats.opsPerSecond(),
            stats.percentileMillis(0.5),
            stats.percentileMillis(0.99),
            stats.errors(),
            stats.conflicts(),
            stats.serverCpuMillisPerOp());
      }
    }

    for (int i = 0; i < runs.size(); i++) {
      // What setting up the big table and the many tables measured (many-tables-create).
      String name = command.targets().get(i).name();
      results.get(name).putAll(runs.get(i).setUpResults());
    }
    ObjectNode document = RestTarget.JSON.createObjectNode();
    document.put("date", OffsetDateTime.now().toString());
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
}
