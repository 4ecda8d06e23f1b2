package dev.floe.server.it.support;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The figures of one fault run, as ordered {@code key=value} pairs and a one-line summary. */
public final class FaultFigures {
  private static final Logger LOG = LoggerFactory.getLogger(FaultFigures.class);

  /**
   * The counts that must be 0, first on the summary line: anything lost, applied twice, answered
   * 409 against the client's own commit, applied that nobody attempted, missing from a load after
   * its 200, or torn by a fault (a multi-table transaction applied to one table only); the mixed
   * writers' creates, renames and transactions lost, applied twice or refused.
   */
  public static final List<String> FAILURES =
      List.of(
          "lost",
          "duplicates",
          "own-conflicts",
          "phantoms",
          "ryw-violations",
          "torn",
          "mixed-lost",
          "mixed-duplicates",
          "mixed-refused",
          "chain-breaks",
          "sequence-gaps",
          "rejected-but-present",
          "refused",
          "event-duplicates",
          "events-not-in-metadata",
          "snapshots-without-event");

  private FaultFigures() {}

  public static Map<String, String> of(
      FaultRun.Settings settings,
      int instances,
      CommitLog log,
      LineageChecker.Report report,
      MixedOps.Report mixed,
      ReadYourWrites.Report reads,
      EventLogCheck.Report events,
      List<FaultRun.Fault> faults,
      List<HarnessWriter> writers,
      long loadStart,
      long loadEnd) {
    Map<String, String> f = newFigures();
    f.put("run", settings.name());
    f.put("date", now());
    f.put("cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
    f.put("instances", String.valueOf(instances));
    f.put("writers", String.valueOf(settings.writers()));
    f.put("tables", String.valueOf(settings.tables()));
    f.put("seed", String.valueOf(settings.seed()));
    f.put("max-down-ms", String.valueOf(settings.maxDown().toMillis()));
    f.put("faults", String.valueOf(faults.size()));
    f.put(
        "load-average-1m",
        String.format(
            Locale.ROOT,
            "%.1f",
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
    f.put("load-s", seconds(loadEnd - loadStart));
    List<CommitLog.Attempt> attempts =
        log.attempts().stream().filter(a -> a.writer >= 0).collect(Collectors.toList());
    long acknowledged = count(attempts, CommitLog.Outcome.ACKNOWLEDGED);
    f.put("attempts", String.valueOf(attempts.size()));
    f.put("acknowledged", String.valueOf(acknowledged));
    f.put("unknown", String.valueOf(count(attempts, CommitLog.Outcome.UNKNOWN)));
    f.put("rejected", String.valueOf(count(attempts, CommitLog.Outcome.REJECTED)));
    f.put("refused", String.valueOf(count(attempts, CommitLog.Outcome.REFUSED)));
    f.put("pending", String.valueOf(count(attempts, CommitLog.Outcome.PENDING)));
    f.put("unknown-present", String.valueOf(report.unknownPresent()));
    f.put("unknown-absent", String.valueOf(report.unknownAbsent()));
    f.put(
        "commits-per-s",
        String.format(Locale.ROOT, "%.1f", acknowledged / ((loadEnd - loadStart) / 1e9)));
    f.put("http-409s-retried", String.valueOf(log.conflicts().size()));
    f.put("409s-against-own-unknown-commit", String.valueOf(report.conflictsWithOwnUnknown()));
    f.put("failovers", String.valueOf(writers.stream().mapToInt(HarnessWriter::failovers).sum()));
    f.put("snapshots-checked", String.valueOf(report.snapshots()));
    f.put("lost", String.valueOf(report.lost()));
    f.put("duplicates", String.valueOf(report.duplicates()));
    f.put("own-conflicts", String.valueOf(report.ownConflicts()));
    f.put("rejected-but-present", String.valueOf(report.rejectedButPresent()));
    f.put("phantoms", String.valueOf(report.phantoms()));
    f.put("chain-breaks", String.valueOf(report.chainBreaks()));
    f.put("sequence-gaps", String.valueOf(report.sequenceGaps()));
    f.put("mixed-writers", String.valueOf(settings.mixedWriters()));
    f.put("creates", String.valueOf(mixed.creates()));
    f.put("renames", String.valueOf(mixed.renames()));
    f.put("transactions", String.valueOf(mixed.transactions()));
    f.put("mixed-acknowledged", String.valueOf(mixed.acknowledged()));
    f.put("mixed-unknown", String.valueOf(mixed.unknown()));
    f.put("mixed-lost", String.valueOf(mixed.lost()));
    f.put("mixed-duplicates", String.valueOf(mixed.duplicates()));
    f.put("torn", String.valueOf(mixed.torn()));
    f.put("mixed-refused", String.valueOf(mixed.refused()));
    f.put("ryw-trials", String.valueOf(reads.trials()));
    f.put("ryw-violations", String.valueOf(reads.violations()));
    f.put("ryw-unanswered", String.valueOf(reads.unavailable()));
    f.put("events-checked", String.valueOf(events.events()));
    f.put("event-duplicates", String.valueOf(events.duplicates()));
    f.put("events-not-in-metadata", String.valueOf(events.notInMetadata()));
    f.put("snapshots-without-event", String.valueOf(events.withoutEvent()));
    List<Double> latencies = sortedLatencies(log);
    f.put("commit-p50-ms", millis(percentile(latencies, 50)));
    f.put("commit-p99-ms", millis(percentile(latencies, 99)));
    f.put("commit-max-ms", millis(percentile(latencies, 100)));
    f.put("max-table-gap-s", seconds(maxGap(attempts, loadStart, loadEnd, true)));
    f.put("max-any-gap-s", seconds(maxGap(attempts, loadStart, loadEnd, false)));
    for (String kind : List.of(FaultRun.INSTANCE, FaultRun.BROKER, FaultRun.BASELINE)) {
      List<Double> windows =
          faults.stream()
              .filter(x -> x.kind().equals(kind))
              .map(x -> (double) x.unavailableNanos())
              .sorted()
              .toList();
      f.put(kind + "-faults", String.valueOf(windows.size()));
      f.put(
          kind + "-window-median-s",
          windows.isEmpty() ? "-" : seconds((long) percentile(windows, 50)));
      f.put(
          kind + "-window-max-s",
          windows.isEmpty() ? "-" : seconds((long) percentile(windows, 100)));
    }
    f.put(
        "max-restart-s",
        seconds(faults.stream().mapToLong(x -> x.readyNanos() - x.startNanos()).max().orElse(0)));
    return f;
  }

  /**
   * The longest time without an acknowledged commit, on one table ({@code perTable}) or on all
   * tables together, between the start and the end of the load.
   */
  private static long maxGap(
      List<CommitLog.Attempt> attempts, long loadStart, long loadEnd, boolean perTable) {
    Map<String, List<Long>> ends = new HashMap<>();
    for (CommitLog.Attempt attempt : attempts) {
      if (attempt.outcome == CommitLog.Outcome.ACKNOWLEDGED) {
        ends.computeIfAbsent(perTable ? attempt.table : "", t -> new ArrayList<>())
            .add(attempt.endNanos);
      }
    }
    long max = ends.isEmpty() ? loadEnd - loadStart : 0;
    for (List<Long> times : ends.values()) {
      Collections.sort(times);
      long previous = loadStart;
      for (long time : times) {
        max = Math.max(max, time - previous);
        previous = time;
      }
      max = Math.max(max, loadEnd - previous);
    }
    return max;
  }

  private static long count(List<CommitLog.Attempt> attempts, CommitLog.Outcome outcome) {
    return attempts.stream().filter(a -> a.outcome == outcome).count();
  }

  /** The figures on one line, for the test output and the harness script. */
  /**
   * The figures on one line, for the test output and the harness script: the counts that must be 0,
   * then what the run did and how long its faults kept commits away.
   */
  public static String summaryLine(Map<String, String> figures) {
    StringBuilder line = new StringBuilder();
    for (String key : FAILURES) {
      line.append(key).append(' ').append(figures.get(key)).append(' ');
    }
    line.append('|');
    for (String key :
        List.of(
            "run",
            "instances",
            "writers",
            "load-s",
            "acknowledged",
            "unknown",
            "mixed-acknowledged",
            "mixed-unknown",
            "ryw-trials",
            "instance-faults",
            "instance-window-median-s",
            "instance-window-max-s",
            "broker-faults",
            "broker-window-median-s",
            "broker-window-max-s",
            "baseline-window-median-s",
            "commit-p50-ms",
            "commit-p99-ms")) {
      line.append(' ').append(key).append(' ').append(figures.get(key));
    }
    return line.toString();
  }

  /**
   * Writes {@code target/fault-harness/<run>.txt} (figures, then a line per fault), appends the
   * summary line to {@code summary.txt}, and prints it.
   */
  public static void write(String run, Map<String, String> figures, List<String> faults)
      throws IOException {
    Path dir = Path.of("target", "fault-harness");
    Files.createDirectories(dir);
    StringBuilder text = new StringBuilder();
    figures.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    faults.forEach(fault -> text.append("fault=").append(fault).append('\n'));
    Files.writeString(dir.resolve(run + ".txt"), text);
    String line = summaryLine(figures);
    Files.writeString(
        dir.resolve("summary.txt"),
        line + "\n",
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    System.out.println(line);
  }

  /**
   * The bytes each of Floe's topics holds on the broker after the run ({@code mb.<topic>}): what a
   * restarted processor restores from, and what replies and idempotency records cost.
   */
  public static Map<String, String> topicSizes(String bootstrapServers) {
    Map<String, String> sizes = new TreeMap<>();
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      Map<String, Long> bytes = new TreeMap<>();
      admin
          .describeLogDirs(List.of(1))
          .allDescriptions()
          .get(30, TimeUnit.SECONDS)
          .values()
          .forEach(
              dirs ->
                  dirs.values()
                      .forEach(
                          dir ->
                              dir.replicaInfos()
                                  .forEach(
                                      (partition, replica) ->
                                          bytes.merge(
                                              partition.topic(), replica.size(), Long::sum))));
      bytes.forEach(
          (topic, size) -> {
            if (topic.startsWith("floe.")) {
              sizes.put("mb." + topic, String.format(Locale.ROOT, "%.1f", size / 1e6));
            }
          });
    } catch (Exception e) {
      LOG.warn("Cannot read the topics' sizes: {}", e.toString());
    }
    return sizes;
  }

  /**
   * One fault: when the process was back, when every table committed again, and how many commits
   * were acknowledged, on how many tables, until the process was back.
   */
  public static String describe(FaultRun.Fault fault, CommitLog log, int tableCount) {
    long commits = 0;
    Set<String> tables = new HashSet<>();
    for (CommitLog.Attempt attempt : log.attempts()) {
      if (attempt.outcome == CommitLog.Outcome.ACKNOWLEDGED
          && attempt.endNanos > fault.startNanos()
          && attempt.endNanos < fault.readyNanos()) {
        commits++;
        tables.add(attempt.table);
      }
    }
    return fault.what()
        + " at "
        + wallClock(fault.startNanos())
        + ", back after "
        + seconds(fault.readyNanos() - fault.startNanos())
        + " s, every table committing again after "
        + seconds(fault.unavailableNanos())
        + " s; "
        + commits
        + " commits acknowledged while it was down, on "
        + tables.size()
        + " of "
        + tableCount
        + " tables; each table's first commit begun after the fault acknowledged after "
        + tableRecoveries(fault, log)
        + " s; the last table's attempts: "
        + lastTableAttempts(fault, log);
  }

  /**
   * The attempts on the table that recovered last, from the fault's start to its recovery: when each
   * began and ended (seconds from the fault), through which instance, and how it ended; what held
   * that table up.
   */
  static String lastTableAttempts(FaultRun.Fault fault, CommitLog log) {
    String last = null;
    long lastEnd = Long.MIN_VALUE;
    Map<String, Long> first = new TreeMap<>();
    for (CommitLog.Attempt attempt : log.attempts()) {
      if (attempt.outcome == CommitLog.Outcome.ACKNOWLEDGED
          && attempt.startNanos > fault.startNanos()) {
        first.merge(attempt.table, attempt.endNanos, Math::min);
      }
    }
    for (Map.Entry<String, Long> entry : first.entrySet()) {
      if (entry.getValue() > lastEnd) {
        last = entry.getKey();
        lastEnd = entry.getValue();
      }
    }
    if (last == null) {
      return "none";
    }
    List<String> seen = new ArrayList<>();
    for (CommitLog.Attempt attempt : log.attempts()) {
      if (attempt.table.equals(last)
          && attempt.endNanos > fault.startNanos()
          && attempt.startNanos <= lastEnd) {
        String error = attempt.error == null ? "" : " " + attempt.error;
        seen.add(
            seconds(attempt.startNanos - fault.startNanos())
                + "-"
                + seconds(attempt.endNanos - fault.startNanos())
                + " w"
                + attempt.writer
                + "@i"
                + attempt.instance
                + " "
                + attempt.outcome
                + (error.length() > 120 ? error.substring(0, 120) : error));
      }
    }
    return last + " [" + String.join("; ", seen) + "]";
  }

  /**
   * For each table, seconds from the fault's start to the acknowledgement of its first commit begun
   * after it, in ascending order: which tables the fault held up, and for how long.
   */
  static String tableRecoveries(FaultRun.Fault fault, CommitLog log) {
    Map<String, Long> first = new TreeMap<>();
    for (CommitLog.Attempt attempt : log.attempts()) {
      if (attempt.outcome == CommitLog.Outcome.ACKNOWLEDGED
          && attempt.startNanos > fault.startNanos()) {
        first.merge(attempt.table, attempt.endNanos, Math::min);
      }
    }
    return first.values().stream()
        .sorted()
        .map(end -> seconds(end - fault.startNanos()))
        .collect(Collectors.joining(", "));
  }

  /** The wall-clock time of a {@link System#nanoTime()} reading, to find it in the logs. */
  private static String wallClock(long nanos) {
    long ago = System.nanoTime() - nanos;
    return Instant.now().minusNanos(ago).toString();
  }

  public static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
  }

  public static String millis(double value) {
    return String.format(Locale.ROOT, "%.0f", value);
  }

  public static double percentile(List<Double> sorted, double p) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }

  public static List<Double> sortedLatencies(CommitLog log) {
    List<Double> latencies = new ArrayList<>();
    for (CommitLog.Attempt attempt : log.attempts()) {
      if (attempt.outcome == CommitLog.Outcome.ACKNOWLEDGED && attempt.writer >= 0) {
        latencies.add(attempt.latencyMillis());
      }
    }
    Collections.sort(latencies);
    return latencies;
  }

  public static String now() {
    return Instant.now().toString();
  }

  public static Map<String, String> newFigures() {
    return new LinkedHashMap<>();
  }
}
