package dev.floe.api.it;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The figures of one fault run, as ordered {@code key=value} pairs and a one-line summary. */
final class FaultFigures {
  private FaultFigures() {}

  static Map<String, String> of(
      FaultRun.Settings settings,
      int instances,
      CommitLog log,
      LineageChecker.Report report,
      List<FaultRun.Fault> faults,
      List<HarnessWriter> writers,
      long loadStart,
      long loadEnd) {
    Map<String, String> f = FaultRun.newFigures();
    f.put("run", settings.name());
    f.put("date", FaultRun.now());
    f.put("cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
    f.put("instances", String.valueOf(instances));
    f.put("writers", String.valueOf(settings.writers()));
    f.put("tables", String.valueOf(settings.tables()));
    f.put("seed", String.valueOf(settings.seed()));
    f.put("max-down-ms", String.valueOf(settings.maxDown().toMillis()));
    f.put(
        "load-average-1m",
        String.format(
            java.util.Locale.ROOT,
            "%.1f",
            java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage()));
    f.put("load-s", FaultRun.seconds(loadEnd - loadStart));
    f.put("kills", String.valueOf(faults.stream().filter(x -> x.what().contains("floe")).count()));
    f.put(
        "broker-restarts",
        String.valueOf(faults.stream().filter(x -> x.what().contains("broker")).count()));
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
        String.format(java.util.Locale.ROOT, "%.1f", acknowledged / ((loadEnd - loadStart) / 1e9)));
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
    List<Double> latencies = FaultRun.sortedLatencies(log);
    f.put("commit-p50-ms", FaultRun.millis(FaultRun.percentile(latencies, 50)));
    f.put("commit-p99-ms", FaultRun.millis(FaultRun.percentile(latencies, 99)));
    f.put("commit-max-ms", FaultRun.millis(FaultRun.percentile(latencies, 100)));
    f.put("max-table-gap-s", FaultRun.seconds(maxGap(attempts, loadStart, loadEnd, true)));
    f.put("max-any-gap-s", FaultRun.seconds(maxGap(attempts, loadStart, loadEnd, false)));
    f.put(
        "max-unavailability-s",
        FaultRun.seconds(
            faults.stream().mapToLong(FaultRun.Fault::unavailableNanos).max().orElse(0)));
    f.put(
        "median-unavailability-s",
        FaultRun.seconds(
            (long)
                FaultRun.percentile(
                    faults.stream().map(x -> (double) x.unavailableNanos()).sorted().toList(),
                    50)));
    f.put(
        "max-restart-s",
        FaultRun.seconds(
            faults.stream().mapToLong(x -> x.readyNanos() - x.startNanos()).max().orElse(0)));
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
  static String summaryLine(Map<String, String> figures) {
    StringBuilder line = new StringBuilder("FAULT-HARNESS");
    for (String key :
        List.of(
            "run",
            "instances",
            "writers",
            "load-s",
            "kills",
            "broker-restarts",
            "acknowledged",
            "unknown",
            "rejected",
            "refused",
            "lost",
            "duplicates",
            "own-conflicts",
            "phantoms",
            "chain-breaks",
            "sequence-gaps",
            "max-unavailability-s",
            "commit-p50-ms",
            "commit-p99-ms")) {
      line.append(' ').append(key).append('=').append(figures.get(key));
    }
    return line.toString();
  }
}
