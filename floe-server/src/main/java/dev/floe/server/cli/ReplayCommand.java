package dev.floe.server.cli;

import com.sun.management.OperatingSystemMXBean;
import dev.floe.events.Topics;
import dev.floe.events.state.NamespaceState;
import dev.floe.projections.replay.EventLogReader;
import dev.floe.projections.replay.ReplayState;
import dev.floe.projections.replay.ReplayStores;
import dev.floe.projections.replay.StateDigests;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.iceberg.TableMetadata;

/**
 * {@code floe replay}: rebuilds the catalog from {@code floe.events} alone into fresh RocksDB
 * stores, then compares it, table by table and namespace by namespace, with the live catalog (over
 * its REST API). With {@code --until <time|offset>} it stops there and prints the catalog as it
 * was.
 */
public final class ReplayCommand {
  static final String USAGE =
      """
      Usage: floe replay [--data-dir ./floe-data | --kafka host:port,...] [--topic-prefix floe.]
                         [--out DIR] [--url http://localhost:8181] [--token T] [--no-compare]
                         [--until 2026-11-30T10:00:00Z | --until <offset>]
      """;

  private ReplayCommand() {}

  /**
   * @return 0 when the replayed state equals the live state (or no comparison was asked), 1 when
   *     not
   */
  public static int run(String[] args, PrintStream out, PrintStream err)
      throws IOException, InterruptedException {
    Map<String, String> flags = new HashMap<>();
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--no-compare")) {
        flags.put("--no-compare", "true");
      } else if (i + 1 < args.length) {
        flags.put(args[i], args[++i]);
      } else {
        err.print(USAGE);
        return 2;
      }
    }
    Path dataDir = Path.of(flags.getOrDefault("--data-dir", "floe-data")).toAbsolutePath();
    String bootstrap =
        flags.containsKey("--kafka") ? flags.get("--kafka") : embeddedBootstrap(dataDir);
    EventLogReader.Until until = EventLogReader.Until.parse(flags.get("--until"));
    Topics topics = new Topics(flags.getOrDefault("--topic-prefix", "floe."));

    ReplayState state = new ReplayState();
    long started = System.nanoTime();
    long cpuStarted = processCpuNanos();
    long applied =
        EventLogReader.replay(
            bootstrap, topics.events(), until, state, (done, total) -> progress(err, done, total));
    double seconds = (System.nanoTime() - started) / 1e9;
    double cpuSeconds = (processCpuNanos() - cpuStarted) / 1e9;
    err.println();
    Path outDir =
        Path.of(
            flags.getOrDefault(
                "--out", dataDir.resolve("replay-" + System.currentTimeMillis()).toString()));
    ReplayStores.write(state, outDir);
    out.printf(
        "Replayed %d events in %.1f s (%.0f events/s; %.1f s of CPU, %.0f events per CPU-second)"
            + " into %s%n",
        applied,
        seconds,
        applied / Math.max(seconds, 1e-9),
        cpuSeconds,
        applied / Math.max(cpuSeconds, 1e-9),
        outDir);

    if (until != EventLogReader.Until.END) {
      print(state, out);
      return 0;
    }
    if (flags.containsKey("--no-compare")) {
      return 0;
    }
    return compare(
        state,
        new LiveCatalog(
            flags.getOrDefault("--url", "http://localhost:8181"),
            ClientToken.resolve(flags.get("--token"), dataDir)),
        out);
  }

  /** Digest per namespace and table on both sides; prints every difference. */
  static int compare(ReplayState state, LiveCatalog live, PrintStream out)
      throws IOException, InterruptedException {
    Map<String, String> replayed = digests(state);
    Set<String> warehouses = new TreeSet<>();
    replayed.keySet().forEach(key -> warehouses.add(key.substring(0, key.indexOf('/'))));
    Map<String, String> current = new TreeMap<>();
    for (String warehouse : warehouses) {
      current.putAll(live.digests(warehouse));
    }
    Set<String> all = new TreeSet<>(replayed.keySet());
    all.addAll(current.keySet());
    int differences = 0;
    for (String entity : all) {
      String a = replayed.get(entity);
      String b = current.get(entity);
      if (a == null || !a.equals(b)) {
        differences++;
        out.printf(
            "DIFFERS  %s  replayed=%s live=%s%n",
            entity,
            a == null ? "absent" : a.substring(0, 12),
            b == null ? "absent" : b.substring(0, 12));
      }
    }
    out.printf("%d namespaces and tables compared, %d differ%n", all.size(), differences);
    return differences == 0 ? 0 : 1;
  }

  public static Map<String, String> digests(ReplayState state) {
    Map<String, String> digests = new TreeMap<>();
    for (Map.Entry<ReplayState.NamespaceRef, NamespaceState> ns : state.namespaces().entrySet()) {
      digests.put(
          ns.getKey().warehouse() + "/" + ns.getKey().namespace(),
          StateDigests.namespace(ns.getValue().properties()));
    }
    for (ReplayState.ReplayedTable table : state.tables()) {
      digests.put(
          table.warehouse() + "/" + table.identifier(),
          StateDigests.table(table.metadataLocation(), table.metadata()));
    }
    for (ReplayState.ReplayedTable view : state.views()) {
      digests.put(
          view.warehouse() + "/view:" + view.identifier(),
          StateDigests.view(view.state().metadataLocation(), view.state().metadataJson()));
    }
    return digests;
  }

  private static void print(ReplayState state, PrintStream out) {
    state.namespaces().entrySet().stream()
        .sorted(Map.Entry.comparingByKey(Comparator.comparing(Object::toString)))
        .forEach(
            ns ->
                out.printf(
                    "namespace %s/%s %s%n",
                    ns.getKey().warehouse(),
                    ns.getKey().namespace(),
                    new TreeMap<>(ns.getValue().properties())));
    for (ReplayState.ReplayedTable table : state.tables()) {
      TableMetadata metadata = table.metadata();
      out.printf(
          "table %s/%s snapshot=%s schema=%d metadata=%s%n",
          table.warehouse(),
          table.identifier(),
          metadata.currentSnapshot() == null ? "none" : metadata.currentSnapshot().snapshotId(),
          metadata.currentSchemaId(),
          table.metadataLocation());
    }
  }

  private static void progress(PrintStream err, long done, long total) {
    int width = 30;
    int filled = total == 0 ? width : (int) (width * done / total);
    err.printf(
        "\r[%s%s] %3d%% %d/%d events",
        "#".repeat(filled),
        ".".repeat(width - filled),
        total == 0 ? 100 : 100 * done / total,
        done,
        total);
  }

  /**
   * CPU time of this process (every thread, JIT and GC included): on a shared machine the wall
   * clock also measures the other work.
   */
  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : 0;
  }

  /** The embedded broker of a local data directory: its port is kept in kafka-ports.properties. */
  static String embeddedBootstrap(Path dataDir) throws IOException {
    Path ports = dataDir.resolve("kafka-ports.properties");
    if (!Files.exists(ports)) {
      throw new IOException(
          "No embedded broker in " + dataDir + " (no kafka-ports.properties); pass --kafka");
    }
    Properties props = new Properties();
    try (var in = Files.newInputStream(ports)) {
      props.load(in);
    }
    return "localhost:" + props.getProperty("port");
  }
}
