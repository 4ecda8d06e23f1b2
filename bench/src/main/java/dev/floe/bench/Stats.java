package dev.floe.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one workload measured against one catalog: how many operations succeeded in how long, how
 * many failed or were retried, the latency percentiles of the successful ones, and, when the
 * catalog's processes are known, the CPU time they and this benchmark spent meanwhile.
 */
final class Stats {
  private long[] latenciesNanos = new long[1024];
  private int count;
  private long errors;
  private long retries;
  private long conflicts;
  private long elapsedNanos;
  private long serverCpuNanos = -1;
  private long benchCpuNanos = -1;

  synchronized void record(long latencyNanos) {
    if (count == latenciesNanos.length) {
      latenciesNanos = Arrays.copyOf(latenciesNanos, count * 2);
    }
    latenciesNanos[count++] = latencyNanos;
  }

  synchronized void error() {
    errors++;
  }

  synchronized void retry() {
    retries++;
  }

  /** A 409 answered to an operation (counted whether or not it was then retried). */
  synchronized void conflict() {
    conflicts++;
  }

  synchronized void elapsed(long nanos) {
    elapsedNanos = nanos;
  }

  /** CPU time over the measured seconds: the catalog's (-1: not known) and the benchmark's. */
  synchronized void cpu(long serverNanos, long benchNanos) {
    serverCpuNanos = serverNanos;
    benchCpuNanos = benchNanos;
  }

  /** The catalog's CPU milliseconds per successful operation, or NaN when not measured. */
  synchronized double serverCpuMillisPerOp() {
    return serverCpuNanos < 0 || count == 0 ? Double.NaN : serverCpuNanos / 1e6 / count;
  }

  synchronized int count() {
    return count;
  }

  synchronized long errors() {
    return errors;
  }

  synchronized long conflicts() {
    return conflicts;
  }

  synchronized double elapsedSeconds() {
    return elapsedNanos / 1e9;
  }

  synchronized double opsPerSecond() {
    return elapsedNanos == 0 ? 0 : count / (elapsedNanos / 1e9);
  }

  /** The latency at quantile {@code q} (0..1) in milliseconds, nearest-rank; NaN when empty. */
  synchronized double percentileMillis(double q) {
    if (count == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(latenciesNanos, count);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(q * count);
    return sorted[Math.max(0, Math.min(count - 1, rank - 1))] / 1e6;
  }

  private static Double finite(double value) {
    return Double.isNaN(value) ? null : value;
  }

  synchronized Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("ops", count);
    map.put("seconds", elapsedNanos / 1e9);
    map.put("opsPerSecond", opsPerSecond());
    map.put("p50", finite(percentileMillis(0.50)));
    map.put("p90", finite(percentileMillis(0.90)));
    map.put("p95", finite(percentileMillis(0.95)));
    map.put("p99", finite(percentileMillis(0.99)));
    map.put("p999", finite(percentileMillis(0.999)));
    map.put("max", finite(percentileMillis(1.0)));
    map.put("errors", errors);
    map.put("retries", retries);
    map.put("conflicts", conflicts);
    if (serverCpuNanos >= 0 && count > 0 && elapsedNanos > 0) {
      map.put("serverCpuMsPerOp", serverCpuNanos / 1e6 / count);
      map.put("serverCores", serverCpuNanos / (double) elapsedNanos);
    }
    if (benchCpuNanos >= 0 && count > 0) {
      map.put("benchCpuMsPerOp", benchCpuNanos / 1e6 / count);
    }
    return map;
  }
}
