package dev.floe.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of {@code floe bench}, checked before anything runs: a misspelt option or
 * workload would otherwise be ignored, and a run of many minutes would measure something else than
 * was asked, or nothing.
 */
record BenchCommand(
    List<BenchCommand.Target> targets,
    Map<String, String> options,
    Workloads.Settings settings,
    List<String> only) {

  /**
   * A catalog to measure, as named on the command line ({@code spec}); nothing is contacted yet.
   * {@code serverPids}, from its {@code pid-file=PATH}s, are its processes on this machine (a
   * catalog and its database, say), whose CPU time, their children's included, every workload
   * reports per operation; empty when none is given. {@code noisyWarehouse}, from {@code
   * noisy=WAREHOUSE}, is where the fairness workload's noisy tenant writes (null: another namespace
   * of {@code warehouse}).
   */
  record Target(
      String spec,
      String name,
      String uri,
      String warehouse,
      String token,
      List<Long> serverPids,
      String noisyWarehouse) {
    RestTarget connect() {
      return new RestTarget(name, uri, warehouse, token, serverPids);
    }

    /** The noisy tenant's catalog: the same one, in {@link #noisyWarehouse}. */
    RestTarget connectNoisy() {
      return new RestTarget(name + "/" + noisyWarehouse, uri, noisyWarehouse, token, serverPids);
    }

    /** The command line's words, which name the token's file, never the token. */
    @Override
    public String toString() {
      return spec;
    }
  }

  static final String USAGE =
      """
      Usage: floe bench --target NAME=URI[,WAREHOUSE[,token-file=PATH][,pid-file=PATH...][,noisy=WH]]
                        [--target ...] [--duration 15] [--warmup 20] [--clients 4] [--width 4]
                        [--depth 2] [--tables 5] [--properties 3] [--open-loop-rate 200]
                        [--big-snapshots 10000] [--many-tables 10000] [--hot-writers 4,16,32]
                        [--events 10000] [--event-page-sizes 10,100,1000]
                        [--idle 10] [--only WORKLOAD,...] [--json out.json] [--report out.md]
                        [--notes notes.md]

        Runs the same workloads against every target (any Iceberg REST catalog), alternating
        between them workload by workload; each workload is warmed up for --warmup seconds, then
        measured for --duration seconds with --clients threads. Figures go to --json (else to
        standard output) and, with --report, into a Markdown report. bench/run.sh runs it against
        Floe and Iceberg's reference server and writes docs/benchmarks.md.

        pid-file (given once or more) names a file whose first word is one of the target's
        processes on this machine (a catalog's, its database's): every workload then reports the
        CPU time those processes and all their children spent per operation over its measured
        seconds (/proc), and before the first workload the target's CPU while idle for --idle
        seconds (0: not measured).
        events writes --events changes (half single-table commits, half transactions of 10
        tables), then reads them all through POST /v1/{prefix}/events at each page size of
        --event-page-sizes; a target whose /v1/config lists no events endpoint is marked n/a.
        fairness measures a quiet tenant's commits (20 a second) alone, then beside --clients
        noisy clients committing 1 MB property values, in warehouse noisy=WH of the same catalog
        (else in another namespace).

        Workloads (create-tree, the namespaces and tables the others use, is always measured
        first): %s
      """;

  private static final Set<String> NUMBERS =
      Set.of(
          "width",
          "depth",
          "tables",
          "properties",
          "clients",
          "duration",
          "warmup",
          "open-loop-rate",
          "big-snapshots",
          "many-tables",
          "events",
          "idle");
  private static final Set<String> OTHERS =
      Set.of("hot-writers", "event-page-sizes", "only", "json", "report", "notes");

  /** Seconds of idle CPU measured of each target before the first workload ({@code --idle}). */
  int idleSeconds() {
    return number(options, "idle", 10);
  }

  /** The usage text, with the names of the workloads a run with the default writers measures. */
  static String usage() {
    return USAGE.formatted(String.join(", ", Workloads.names(List.of(4, 16, 32))));
  }

  /**
   * @throws IllegalArgumentException naming what is wrong with the command line
   */
  static BenchCommand parse(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    List<String> specs = new ArrayList<>();
    for (int i = 0; i < args.length; i += 2) {
      String arg = args[i];
      if (!arg.startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("Expected --option value, got " + arg);
      }
      String name = arg.substring(2);
      if (name.equals("target")) {
        specs.add(args[i + 1]);
      } else if (NUMBERS.contains(name) || OTHERS.contains(name)) {
        options.put(name, args[i + 1]);
      } else {
        throw new IllegalArgumentException("Unknown option " + arg);
      }
    }
    if (specs.isEmpty()) {
      throw new IllegalArgumentException("Name at least one --target NAME=URI[,WAREHOUSE]");
    }
    Workloads.Settings settings =
        new Workloads.Settings(
            number(options, "width", 4),
            number(options, "depth", 2),
            number(options, "tables", 5),
            number(options, "properties", 3),
            number(options, "clients", 4),
            number(options, "duration", 15),
            number(options, "warmup", 20),
            number(options, "open-loop-rate", 200),
            number(options, "big-snapshots", 10_000),
            number(options, "many-tables", 10_000),
            numbers("hot-writers", options.getOrDefault("hot-writers", "4,16,32")),
            number(options, "events", 10_000),
            numbers("event-page-sizes", options.getOrDefault("event-page-sizes", "10,100,1000")));
    List<String> only = options.containsKey("only") ? names(options.get("only")) : List.of();
    List<String> known = Workloads.names(settings.hotWriters());
    for (String workload : only) {
      if (!known.contains(workload)) {
        throw new IllegalArgumentException(
            "Unknown workload " + workload + " in --only; known: " + String.join(", ", known));
      }
    }
    List<Target> targets = new ArrayList<>();
    for (String spec : specs) {
      Target target = target(spec);
      if (targets.stream().anyMatch(t -> t.name().equals(target.name()))) {
        throw new IllegalArgumentException("Two targets are named " + target.name());
      }
      targets.add(target);
    }
    return new BenchCommand(
        List.copyOf(targets), Collections.unmodifiableMap(options), settings, only);
  }

  /** {@code NAME=URI[,WAREHOUSE[,token-file=PATH][,pid-file=PATH...][,noisy=WH]]}. */
  private static Target target(String spec) {
    int equals = spec.indexOf('=');
    String[] rest = spec.substring(equals + 1).split(",");
    if (equals <= 0 || !(rest[0].startsWith("http://") || rest[0].startsWith("https://"))) {
      throw new IllegalArgumentException(
          "A --target is NAME=URI[,WAREHOUSE[,token-file=PATH][,pid-file=PATH...]] with an http(s)"
              + " URI, got "
              + spec);
    }
    String warehouse = rest.length > 1 && !rest[1].isEmpty() ? rest[1] : null;
    String token = null;
    String noisy = null;
    List<Long> pids = new ArrayList<>();
    for (int i = 2; i < rest.length; i++) {
      if (rest[i].startsWith("noisy=") && noisy == null && rest[i].length() > 6) {
        noisy = rest[i].substring("noisy=".length());
      } else if (rest[i].startsWith("token-file=") && token == null) {
        Path file = Path.of(rest[i].substring("token-file=".length()));
        try {
          token = Files.readString(file).trim();
        } catch (IOException e) {
          throw new IllegalArgumentException("Cannot read the token file " + file + ": " + e, e);
        }
      } else if (rest[i].startsWith("pid-file=")) {
        Path file = Path.of(rest[i].substring("pid-file=".length()));
        try {
          pids.add(Long.parseLong(Files.readString(file).trim().split("\\s+")[0]));
        } catch (IOException | NumberFormatException e) {
          throw new IllegalArgumentException(
              "Cannot read a process id from the pid file " + file + ": " + e, e);
        }
      } else {
        throw new IllegalArgumentException(
            "Expected token-file=PATH (once), pid-file=PATH or noisy=WAREHOUSE (once) after the"
                + " warehouse in "
                + spec
                + ", got "
                + rest[i]);
      }
    }
    return new Target(
        spec, spec.substring(0, equals), rest[0], warehouse, token, List.copyOf(pids), noisy);
  }

  private static int number(Map<String, String> options, String name, int fallback) {
    // No warm-up, or namespaces without properties, are runs one may want; the rest need some.
    int least = name.equals("warmup") || name.equals("properties") || name.equals("idle") ? 0 : 1;
    return options.containsKey(name) ? whole(name, options.get(name).trim(), least) : fallback;
  }

  /** The comma-separated numbers of option {@code name}, each at least 1. */
  private static List<Integer> numbers(String name, String value) {
    return names(value).stream().map(part -> whole(name, part, 1)).toList();
  }

  private static int whole(String option, String value, int least) {
    int number;
    try {
      number = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + option + " takes whole numbers, got " + value, e);
    }
    if (number < least) {
      throw new IllegalArgumentException(
          "--" + option + " must be at least " + least + ", got " + value);
    }
    return number;
  }

  private static List<String> names(String value) {
    List<String> names =
        Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    if (names.isEmpty()) {
      throw new IllegalArgumentException("Expected a comma-separated list, got '" + value + "'");
    }
    return names;
  }
}
