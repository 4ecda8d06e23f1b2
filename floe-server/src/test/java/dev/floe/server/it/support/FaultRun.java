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
 * faults are injected one after the other, each once every table commits again after the previous
 * one and {@code pause} more; every acknowledged commit is loaded again from every instance
 * (read-your-writes); then the writers stop, and the lineage checker walks the result and the event
 * log is checked against it.
 */
public final class FaultRun {
  private static final Logger LOG = LoggerFactory.getLogger(FaultRun.class);
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Duration RECOVERY_LIMIT = Duration.ofSeconds(120);

  /**
   * @param mixedWriters writers of creates, renames and multi-table transactions ({@link MixedOps})
   *     beside the appending ones
   * @param load the least time the writers run
   * @param pause load between one fault's recovery and the next fault
   * @param maxDown a killed process stays down for a random time up to this before its restart
   *     (beyond the processor's session timeout, an instance's partitions move to the others)
   */
  public record Settings(
      String name,
      int writers,
      int tables,
      int mixedWriters,
      Duration load,
      Duration pause,
      Duration maxDown,
      long seed) {}

  /**
   * A fault to inject: its kind ({@link #INSTANCE} or {@link #BROKER}) and the strike, which causes
   * it, repairs it (restarts or resumes the process) and answers what it did.
   */
  public record Injection(String kind, Strike strike) {}

  public static final String INSTANCE = "instance";
  public static final String BROKER = "broker";

  /**
   * A fault that does nothing: its window is the harness's own floor (how long the writers take to
   * acknowledge a commit begun after a moment on every table when nothing failed), to read the
   * other windows against.
   */
  public static final String BASELINE = "baseline";

  /** A {@link #BASELINE} injection. */
  public static Injection baseline() {
    return new Injection(BASELINE, random -> "no fault (baseline)");
  }

  /** Causes a fault and repairs it; answers what it did, e.g. "SIGKILL floe-1, down 3.2 s". */
  @FunctionalInterface
  public interface Strike {
    String run(Random random) throws Exception;
  }

  /**
   * A fault: its kind, what was done, when it began, when its process was back, and when every
   * table had acknowledged a commit begun after the fault began (nanoTime).
   */
  public record Fault(
      String kind, String what, long startNanos, long readyNanos, long recoveredNanos) {
    public long unavailableNanos() {
      return recoveredNanos - startNanos;
    }
  }

  /**
   * The outcome: the checker's report, read-your-writes, the event log's check, the figures, what
   * else went wrong, and the commits refused with an error other than a 409 or a 5xx.
   */
  public record Result(
      LineageChecker.Report report,
      MixedOps.Report mixed,
      ReadYourWrites.Report readYourWrites,
      EventLogCheck.Report events,
      Map<String, String> figures,
      List<String> problems,
      List<String> refusals) {}

  private final FaultTarget cluster;
  private final Settings settings;
  private final List<Injection> injections;
  private final CommitLog log = new CommitLog();
  private final List<Fault> faults = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  private final Random random;

  public FaultRun(FaultTarget cluster, Settings settings, List<Injection> injections) {
    this.cluster = cluster;
    this.settings = settings;
    this.injections = List.copyOf(injections);
    this.random = new Random(settings.seed());
  }

  public Result run() throws Exception {
    List<TableIdentifier> tables = createTables();
    AtomicBoolean stop = new AtomicBoolean();
    ReadYourWrites readYourWrites = new ReadYourWrites(cluster.uris());
    List<HarnessWriter> writers = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < settings.writers(); i++) {
      HarnessWriter writer =
          new HarnessWriter(
              i, cluster.uris(), tables, log, readYourWrites, stop, settings.seed() + i);
      writers.add(writer);
      Thread thread = new Thread(writer, "harness-writer-" + i);
      threads.add(thread);
    }
    Namespace mixedNamespace = Namespace.of("mixed_" + settings.name().replace('-', '_'));
    List<MixedOps> mixed = new ArrayList<>();
    if (settings.mixedWriters() > 0) {
      createNamespace(mixedNamespace);
    }
    for (int i = 0; i < settings.mixedWriters(); i++) {
      MixedOps writer =
          new MixedOps(
              i, cluster.uris(), mixedNamespace, stop, settings.seed() + 1000 + i, readYourWrites);
      mixed.add(writer);
      threads.add(new Thread(writer, "mixed-ops-" + i));
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
    for (MixedOps writer : mixed) {
      if (writer.died() != null) {
        problems.add("a mixed writer died: " + writer.died());
      }
    }
    LineageChecker.Report report;
    MixedOps.Report mixedReport;
    EventLogCheck.Report events;
    try (RESTCatalog checkerClient = retrying(() -> connectAny())) {
      report = retrying(() -> LineageChecker.check(checkerClient, tables, log));
      mixedReport = retrying(() -> MixedOps.check(checkerClient, mixed));
      events =
          retrying(() -> EventLogCheck.check(cluster.bootstrapServers(), checkerClient, tables));
    }
    ReadYourWrites.Report reads = readYourWrites.report();
    Map<String, String> figures =
        FaultFigures.of(
            settings,
            cluster.size(),
            log,
            report,
            mixedReport,
            reads,
            events,
            faults,
            writers,
            loadStart,
            loadEnd);
    figures.putAll(FaultFigures.topicSizes(cluster.bootstrapServers()));
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
    return new Result(report, mixedReport, reads, events, figures, problems, refusals);
  }

  /**
   * Injects the faults one after the other. After each, the load goes on until every table has
   * acknowledged a commit begun after the fault began (so faults never overlap), then for {@code
   * pause} more.
   */
  private void injectFaults(List<TableIdentifier> tables, long loadStart) throws Exception {
    for (Injection injection : injections) {
      Thread.sleep(settings.pause().toMillis());
      long start = System.nanoTime();
      String what = injection.strike().run(random);
      long ready = System.nanoTime();
      Fault fault =
          new Fault(injection.kind(), what, start, ready, awaitEveryTableCommitted(tables, start));
      faults.add(fault);
      LOG.info(
          "{} ({} of {}): repaired after {} s, every table committing again after {} s",
          what,
          faults.size(),
          injections.size(),
          FaultFigures.seconds(fault.readyNanos() - fault.startNanos()),
          FaultFigures.seconds(fault.unavailableNanos()));
    }
    long remaining = settings.load().toNanos() - (System.nanoTime() - loadStart);
    if (remaining > 0) {
      Thread.sleep(remaining / 1_000_000);
    }
  }

  /**
   * The faults of one broker and its instances: SIGKILL of a random instance, or of the broker,
   * each restarted after a random time up to {@code maxDown}.
   */
  public static List<Injection> singleBroker(
      FaultCluster cluster, int kills, int brokerRestarts, Duration maxDown) {
    List<Injection> injections = new ArrayList<>();
    for (int i = 0; i < kills; i++) {
      injections.add(
          new Injection(
              INSTANCE,
              random -> {
                int victim = random.nextInt(cluster.size());
                cluster.instance(victim).kill();
                long down = stayDown(random, maxDown);
                cluster.instance(victim).start();
                return "SIGKILL floe-" + (victim + 1) + ", down " + down + " ms";
              }));
    }
    for (int i = 0; i < brokerRestarts; i++) {
      injections.add(
          new Injection(
              BROKER,
              random -> {
                cluster.broker().kill();
                long down = stayDown(random, maxDown);
                cluster.broker().start();
                return "SIGKILL broker, down " + down + " ms";
              }));
    }
    return injections;
  }

  /** Sleeps a random time up to {@code maxDown}; answers it in milliseconds. */
  public static long stayDown(Random random, Duration maxDown) throws InterruptedException {
    long millis = (long) (random.nextDouble() * maxDown.toMillis());
    if (millis > 0) {
      Thread.sleep(millis);
    }
    return millis;
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

  private void createNamespace(Namespace namespace) {
    try (RESTCatalog catalog = retrying(this::connectAny)) {
      retrying(
          () -> {
            if (!catalog.namespaceExists(namespace)) {
              catalog.createNamespace(namespace);
            }
            return null;
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
        // Without the writers' 5 s give-up: setup and the checks wait for a slow answer.
        return RestClients.connect(uri, Map.of());
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
