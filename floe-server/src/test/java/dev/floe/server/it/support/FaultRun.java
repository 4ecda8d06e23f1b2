package dev.floe.server.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the fault harness: writers append to the run's tables through the instances while
 * faults are injected one after the other (SIGKILL and restart of a random instance, then SIGKILL
 * and restart of the broker), each once every table commits again after the previous one and {@code
 * pause} more; then the writers stop and the lineage checker walks the result.
 */
public final class FaultRun {
  private static final Logger LOG = LoggerFactory.getLogger(FaultRun.class);
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Duration RECOVERY_LIMIT = Duration.ofSeconds(120);

  /**
   * @param load the least time the writers run
   * @param pause load between one fault's recovery and the next fault
   * @param maxDown a killed process stays down for a random time up to this before its restart
   *     (beyond the processor's 15 s session timeout, an instance's partitions move to the others)
   */
  public record Settings(
      String name,
      int writers,
      int tables,
      Duration load,
      int kills,
      int brokerRestarts,
      Duration pause,
      Duration maxDown,
      long seed) {}

  /**
   * A fault: what was done, when it began, when the process answered again, and when every table
   * had acknowledged a commit begun after the fault began (nanoTime).
   */
  public record Fault(String what, long startNanos, long readyNanos, long recoveredNanos) {
    public long unavailableNanos() {
      return recoveredNanos - startNanos;
    }
  }

  /**
   * The outcome: the checker's report, the figures, what else went wrong, and the commits refused
   * with an error other than a 409 or a 5xx (tag and error).
   */
  public record Result(
      LineageChecker.Report report,
      Map<String, String> figures,
      List<String> problems,
      List<String> refusals) {}

  private final FaultCluster cluster;
  private final Settings settings;
  private final CommitLog log = new CommitLog();
  private final List<Fault> faults = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  private final Random random;

  public FaultRun(FaultCluster cluster, Settings settings) {
    this.cluster = cluster;
    this.settings = settings;
    this.random = new Random(settings.seed());
  }

  public Result run() throws Exception {
    List<TableIdentifier> tables = createTables();
    AtomicBoolean stop = new AtomicBoolean();
    List<HarnessWriter> writers = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < settings.writers(); i++) {
      HarnessWriter writer =
          new HarnessWriter(i, cluster.uris(), tables, log, stop, settings.seed() + i);
      writers.add(writer);
      Thread thread = new Thread(writer, "harness-writer-" + i);
      threads.add(thread);
    }
    long loadStart = System.nanoTime();
    threads.forEach(Thread::start);
    injectFaults(tables, loadStart);
    stop.set(true);
    long loadEnd = System.nanoTime();
    for (Thread thread : threads) {
      thread.join(Duration.ofMinutes(5).toMillis());
      if (thread.isAlive()) {
        problems.add(thread.getName() + " did not stop within 5 minutes");
      }
    }
    for (HarnessWriter writer : writers) {
      if (writer.died() != null) {
        problems.add("a writer died: " + writer.died());
      }
    }
    LineageChecker.Report report;
    try (RESTCatalog checkerClient = retrying(() -> connectAny())) {
      report = retrying(() -> LineageChecker.check(checkerClient, tables, log));
    }
    Map<String, String> figures =
        FaultFigures.of(settings, cluster.size(), log, report, faults, writers, loadStart, loadEnd);
    figures.putAll(FaultFigures.topicSizes(cluster.broker().bootstrapServers()));
    FaultFigures.write(
        settings.name(),
        figures,
        faults.stream()
            .map(fault -> FaultFigures.describe(fault, log, settings.tables()))
            .toList());
    List<String> refusals =
        log.attempts().stream()
            .filter(a -> a.outcome == CommitLog.Outcome.REFUSED)
            .map(a -> a.tag + ": " + a.error)
            .toList();
    return new Result(report, figures, problems, refusals);
  }

  /**
   * Injects the faults one after the other. After each, the load goes on until every table has
   * acknowledged a commit begun after the fault began (so faults never overlap), then for {@code
   * pause} more.
   */
  private void injectFaults(List<TableIdentifier> tables, long loadStart)
      throws InterruptedException {
    int kills = 0;
    int brokerRestarts = 0;
    while (kills < settings.kills() || brokerRestarts < settings.brokerRestarts()) {
      Thread.sleep(settings.pause().toMillis());
      long start = System.nanoTime();
      String what;
      if (kills < settings.kills()) {
        int victim = random.nextInt(cluster.size());
        what = "SIGKILL floe-" + (victim + 1);
        cluster.instance(victim).kill();
        stayDown();
        cluster.instance(victim).start();
        kills++;
      } else {
        what = "SIGKILL broker";
        cluster.broker().kill();
        stayDown();
        cluster.broker().start();
        brokerRestarts++;
      }
      long ready = System.nanoTime();
      Fault fault = new Fault(what, start, ready, awaitEveryTableCommitted(tables, start));
      faults.add(fault);
      LOG.info(
          "{} ({} of {}): back after {} s, every table committing again after {} s",
          what,
          faults.size(),
          settings.kills() + settings.brokerRestarts(),
          FaultFigures.seconds(fault.readyNanos() - fault.startNanos()),
          FaultFigures.seconds(fault.unavailableNanos()));
    }
    long remaining = settings.load().toNanos() - (System.nanoTime() - loadStart);
    if (remaining > 0) {
      Thread.sleep(remaining / 1_000_000);
    }
  }

  private void stayDown() throws InterruptedException {
    long millis = settings.maxDown().toMillis();
    if (millis > 0) {
      Thread.sleep((long) (random.nextDouble() * millis));
    }
  }

  /**
   * Keeps the load on until every table has an acknowledged commit begun after {@code since};
   * answers when the last of those commits was acknowledged.
   */
  private long awaitEveryTableCommitted(List<TableIdentifier> tables, long since)
      throws InterruptedException {
    long deadline = System.nanoTime() + RECOVERY_LIMIT.toNanos();
    while (System.nanoTime() < deadline) {
      boolean all = true;
      long latest = since;
      for (TableIdentifier table : tables) {
        long first = Long.MAX_VALUE;
        for (CommitLog.Attempt attempt : log.attemptsOn(table.toString())) {
          if (attempt.outcome == CommitLog.Outcome.ACKNOWLEDGED && attempt.startNanos > since) {
            first = Math.min(first, attempt.endNanos);
          }
        }
        all &= first != Long.MAX_VALUE;
        latest = first == Long.MAX_VALUE ? latest : Math.max(latest, first);
      }
      if (all) {
        return latest;
      }
      Thread.sleep(200);
    }
    problems.add(
        "not every table committed again within " + RECOVERY_LIMIT.toSeconds() + " s of a fault");
    return System.nanoTime();
  }

  private List<TableIdentifier> createTables() {
    Namespace namespace = Namespace.of("faults_" + settings.name().replace('-', '_'));
    List<TableIdentifier> tables = new ArrayList<>();
    try (RESTCatalog catalog = retrying(this::connectAny)) {
      retrying(
          () -> {
            if (!catalog.namespaceExists(namespace)) {
              catalog.createNamespace(namespace);
            }
            return null;
          });
      for (int i = 0; i < settings.tables(); i++) {
        TableIdentifier id = TableIdentifier.of(namespace, "t" + i);
        Table table = retrying(() -> createOrLoad(catalog, id));
        String tag = "seed-" + id;
        CommitLog.Attempt seed = log.begin(tag, -1, id.toString(), 0);
        retrying(
            () -> {
              table.refresh();
              if (table.currentSnapshot() == null) {
                table
                    .newFastAppend()
                    .appendFile(DataFileEntries.of(table, "x"))
                    .set(CommitLog.TAG, tag)
                    .commit();
              }
              return null;
            });
        seed.acknowledged(table.currentSnapshot().snapshotId());
        tables.add(id);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tables;
  }

  private static Table createOrLoad(RESTCatalog catalog, TableIdentifier id) {
    Map<String, String> properties = new HashMap<>();
    properties.put("format-version", "2");
    // Writers race on few tables: let Iceberg's client retry 409s between writers as long as it
    // takes (each retry reloads the table and re-applies the append on the new head).
    properties.put("commit.retry.num-retries", "1000");
    properties.put("commit.retry.min-wait-ms", "5");
    properties.put("commit.retry.max-wait-ms", "200");
    properties.put("commit.retry.total-timeout-ms", "600000");
    try {
      return catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), properties);
    } catch (AlreadyExistsException e) {
      return catalog.loadTable(id);
    }
  }

  private RESTCatalog connectAny() {
    RuntimeException last = null;
    for (String uri : cluster.uris()) {
      try {
        return HarnessWriter.connect(uri, (path, added, message) -> {});
      } catch (RuntimeException e) {
        last = e;
      }
    }
    throw last;
  }

  /** Setup and checking run after faults too: retry what a restarting instance refuses. */
  private static <T> T retrying(Supplier<T> action) {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (true) {
      try {
        return action.get();
      } catch (RuntimeException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        LOG.info("Retrying after {}", e.toString());
        try {
          Thread.sleep(500);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }
}
