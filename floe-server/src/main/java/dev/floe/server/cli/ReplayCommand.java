package dev.floe.server.cli;

import com.sun.management.OperatingSystemMXBean;
import dev.floe.events.Topics;
import dev.floe.events.state.NamespaceState;
import dev.floe.projections.replay.EventLogReader;
import dev.floe.projections.replay.ReplayState;
import dev.floe.projections.replay.ReplayStores;
import dev.floe.projections.replay.ReplayedTable;
import dev.floe.projections.replay.StateDigests;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.iceberg.TableMetadata;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code floe replay}: rebuilds the catalog from {@code floe.events} alone into fresh RocksDB
 * stores, then compares it, table by table and namespace by namespace, with the live catalog (over
 * its REST API). With {@code --until <time|offset>} it stops there and prints the catalog as it
 * was. It exits with 0 when the replayed state equals the live state (or no comparison was asked),
 * 1 when not.
 */
@Command(
    name = "replay",
    description = {
      "Rebuild the catalog from floe.events into fresh stores, and compare it with the live one"
          + " table by table; exit status 1 when they differ.",
      "With --until it stops there and prints the catalog as it was."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  floe replay --data-dir ./floe-data --url http://localhost:8181",
      "  floe replay --kafka broker1:9092 --until 2026-11-30T10:00:00Z --out /tmp/then"
    })
final class ReplayCommand implements Callable<Integer> {
  private final Streams streams;

  @Spec CommandSpec spec;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      defaultValue = "floe-data",
      description =
          "the data directory of a `floe serve` on this machine: its embedded broker, its token and"
              + " the default parent of --out (default ./floe-data)")
  Path dataDir;

  @Option(
      names = "--kafka",
      paramLabel = "host:port,...",
      description = "the Kafka cluster (default: the embedded broker of --data-dir)")
  String kafka;

  @Option(
      names = "--topic-prefix",
      paramLabel = "P",
      defaultValue = "floe.",
      description = "the prefix of Floe's topic names (default ${DEFAULT-VALUE})")
  String topicPrefix;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "keep the replayed stores in DIR (without it they are written to a temporary"
              + " directory and removed at the end)")
  Path out;

  @Option(
      names = "--url",
      paramLabel = "URL",
      defaultValue = "http://localhost:8181",
      converter = ServerUrl.class,
      description = "the live catalog to compare with (default ${DEFAULT-VALUE})")
  String url;

  @Option(
      names = "--token",
      paramLabel = "T",
      description =
          "the bearer token for --url (default: $FLOE_TOKEN, else <data-dir>/admin.token)")
  String token;

  @Option(names = "--no-compare", description = "only replay; do not compare with --url")
  boolean noCompare;

  @Option(
      names = "--until",
      paramLabel = "TIME|OFFSET",
      description =
          "stop at this time (2026-11-30T10:00:00Z) or log offset, and print the catalog as it was")
  String until;

  ReplayCommand(Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() throws InterruptedException, IOException {
    Path data = dataDir.toAbsolutePath();
    EventLogReader.Until stop;
    try {
      stop = EventLogReader.Until.parse(until);
    } catch (RuntimeException e) {
      throw new ParameterException(spec.commandLine(), "--until " + until + ": " + e.getMessage());
    }
    String bootstrap = kafka != null ? kafka : EmbeddedBroker.bootstrap(data);
    KafkaAddress.requireReachable(bootstrap);
    LiveCatalog live = new LiveCatalog(url, ClientToken.resolve(token, data));
    boolean comparing = stop == EventLogReader.Until.END && !noCompare;
    if (comparing) {
      live.requireReachable();
    }
    Topics topics = new Topics(topicPrefix);
    PrintStream err = streams.err();

    ReplayState state = new ReplayState();
    long started = System.nanoTime();
    long cpuStarted = processCpuNanos();
    long applied =
        EventLogReader.replay(
            bootstrap, topics.events(), stop, state, (done, total) -> progress(err, done, total));
    double seconds = (System.nanoTime() - started) / 1e9;
    double cpuSeconds = (processCpuNanos() - cpuStarted) / 1e9;
    err.println();
    Path outDir = out != null ? out : Files.createTempDirectory("floe-replay-");
    try {
      ReplayStores.write(state, outDir);
    } finally {
      if (out == null) {
        deleteTree(outDir);
      }
    }
    streams
        .out()
        .printf(
            "Replayed %d events in %.1f s (%.0f events/s; %.1f s of CPU, %.0f events per"
                + " CPU-second) into %s%n",
            applied,
            seconds,
            applied / Math.max(seconds, 1e-9),
            cpuSeconds,
            applied / Math.max(cpuSeconds, 1e-9),
            out != null ? out : "stores not kept (--out DIR keeps them)");

    if (stop != EventLogReader.Until.END) {
      print(state, streams.out());
      return 0;
    }
    if (!comparing) {
      return 0;
    }
    try {
      return compare(state, live, streams.out());
    } catch (IOException e) {
      throw new CliFailure(
          "cannot read the live catalog at " + url + " (" + e.getMessage() + ")",
          "is that URL a Floe server?",
          e);
    }
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

  static Map<String, String> digests(ReplayState state) {
    Map<String, String> digests = new TreeMap<>();
    for (Map.Entry<ReplayState.NamespaceRef, NamespaceState> ns : state.namespaces().entrySet()) {
      digests.put(
          ns.getKey().warehouse() + "/" + ns.getKey().namespace(),
          StateDigests.namespace(ns.getValue().properties()));
    }
    for (ReplayedTable table : state.tables()) {
      digests.put(
          table.warehouse() + "/" + table.identifier(),
          StateDigests.table(table.metadataLocation(), table.metadata()));
    }
    for (ReplayedTable view : state.views()) {
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
    for (ReplayedTable table : state.tables()) {
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

  /** Removes a directory this command made, and everything in it. */
  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  /**
   * How far through the log the replay is, in log offsets: transaction markers take offsets too, so
   * there are more of them than events.
   */
  private static void progress(PrintStream err, long done, long total) {
    int width = 30;
    int filled = total == 0 ? width : (int) (width * done / total);
    err.printf(
        "\r[%s%s] %3d%% %d/%d log offsets",
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
}
