package dev.floe.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code fairness} workload: how much one tenant's large commits slow another's small ones.
 *
 * <p>The quiet tenant commits a one-property update to its own tables, in turn, at {@link
 * #QUIET_RATE} per second (open loop: a stall is counted from when the commit was due), first
 * alone, then while {@code clients} noisy clients each commit, as fast as they are answered, a
 * {@link #NOISY_BYTES} property value (within the 1 MiB a request may set) to tables of their own.
 * The noisy tenant writes to another warehouse of the same catalog when the target names one
 * ({@code noisy=WAREHOUSE}), else to another namespace. Measured: the quiet commits' latencies
 * alone and with the noise, the noisy commits' rate and bytes, and the catalog's CPU in cores over
 * each phase.
 */
final class Fairness {
  static final String WORKLOAD = "fairness";

  /** The quiet tenant's commits per second. */
  static final int QUIET_RATE = 20;

  /** The quiet tenant's tables, committed to in turn (no two of its commits race on one table). */
  static final int QUIET_TABLES = 8;

  /** Bytes of each noisy commit's property value. */
  static final int NOISY_BYTES = 1_000_000;

  private final RestTarget quiet;
  private final RestTarget noisy;
  private final Workloads.Settings settings;
  private final String run;
  private final AtomicLong counter = new AtomicLong();

  Fairness(RestTarget quiet, RestTarget noisy, Workloads.Settings settings, String run) {
    this.quiet = quiet;
    this.noisy = noisy;
    this.settings = settings;
    this.run = run;
  }

  Map<String, Object> run() throws InterruptedException {
    String[] quietTables = new String[QUIET_TABLES];
    for (int i = 0; i < quietTables.length; i++) {
      quietTables[i] = table(quiet, run + "_quiet", "q" + i);
    }
    String[] noisyTables = new String[settings.clients()];
    for (int i = 0; i < noisyTables.length; i++) {
      noisyTables[i] = table(noisy, run + "_noisy", "n" + i);
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("noisyWarehouse", noisy.warehouse);
    result.put("quietWarehouse", quiet.warehouse);
    result.put("separateWarehouses", noisy != quiet);
    result.put("quietRate", QUIET_RATE);
    result.put("noisyClients", noisyTables.length);
    result.put("noisyBytes", NOISY_BYTES);
    if (settings.warmupSeconds() > 0) {
      Load.openLoop(settings.warmupSeconds(), QUIET_RATE, () -> small(quietTables));
    }
    result.put(
        "alone",
        measured(
            () -> Load.openLoop(settings.durationSeconds(), QUIET_RATE, () -> small(quietTables))));

    AtomicBoolean stop = new AtomicBoolean();
    Stats noise = new Stats();
    ExecutorService pool = Executors.newFixedThreadPool(noisyTables.length);
    long noiseStarted = System.nanoTime();
    for (String table : noisyTables) {
      pool.submit(
          () -> {
            String value = "x".repeat(NOISY_BYTES - 16);
            while (!stop.get()) {
              Load.timed(noise, () -> large(table, value));
            }
          });
    }
    // The noise runs for the warm-up first, so the quiet tenant is measured against it at full
    // strength.
    Thread.sleep(Math.max(2, settings.warmupSeconds()) * 1000L);
    Map<String, Object> together =
        measured(
            () -> Load.openLoop(settings.durationSeconds(), QUIET_RATE, () -> small(quietTables)));
    stop.set(true);
    pool.shutdown();
    pool.awaitTermination(60, TimeUnit.SECONDS);
    noise.elapsed(System.nanoTime() - noiseStarted);
    result.put("withNoise", together);
    Map<String, Object> noisyResult = noise.toMap();
    noisyResult.put("mebibytesPerSecond", noise.opsPerSecond() * NOISY_BYTES / (1024.0 * 1024));
    result.put("noisy", noisyResult);
    System.err.printf(
        "  %s: fairness: quiet p50 %.2f -> %.2f ms, p99 %.2f -> %.2f ms; noisy %.1f commits/s%n",
        quiet.name,
        (Double) ((Map<?, ?>) result.get("alone")).get("p50"),
        (Double) together.get("p50"),
        (Double) ((Map<?, ?>) result.get("alone")).get("p99"),
        (Double) together.get("p99"),
        noise.opsPerSecond());
    return result;
  }

  private interface Phase {
    Stats run();
  }

  /** A phase's quiet commits, with the catalog's CPU in cores over it. */
  private Map<String, Object> measured(Phase phase) {
    long server = ServerCpu.treeNanos(quiet.serverPids);
    long bench = ServerCpu.benchNanos();
    Stats stats = phase.run();
    long serverAfter = ServerCpu.treeNanos(quiet.serverPids);
    long benchAfter = ServerCpu.benchNanos();
    stats.cpu(
        server < 0 || serverAfter < 0 ? -1 : serverAfter - server,
        bench < 0 || benchAfter < 0 ? -1 : benchAfter - bench);
    return stats.toMap();
  }

  private int small(String[] tables) {
    long n = counter.incrementAndGet();
    return commit(quiet, tables[(int) (n % tables.length)], "{\"quiet\":\"" + n + "\"}");
  }

  private int large(String table, String value) {
    return commit(
        noisy,
        table,
        "{\"noise\":\"" + value + Long.toString(counter.incrementAndGet(), 36) + "\"}");
  }

  private static int commit(RestTarget target, String table, String updates) {
    return target
        .call(
            "POST",
            table,
            "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":"
                + updates
                + "}]}")
        .status();
  }

  /** Creates a namespace (if new) and a table in it; answers the table's path. */
  private static String table(RestTarget target, String namespace, String name) {
    target.call("POST", "namespaces", "{\"namespace\":[\"" + namespace + "\"]}");
    String path = "namespaces/" + RestTarget.encode(namespace) + "/tables";
    RestTarget.Response created =
        target.call(
            "POST", path, "{\"name\":\"" + name + "\",\"schema\":" + Workloads.SCHEMA + "}");
    if (created.status() != 200) {
      throw new IllegalStateException(
          target.name + ": creating " + namespace + "." + name + " answered " + created.status());
    }
    return path + "/" + RestTarget.encode(name);
  }
}
