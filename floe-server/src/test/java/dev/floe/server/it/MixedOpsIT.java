package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.MixedOps;
import dev.floe.server.it.support.RestClients;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@link MixedOps} against one {@code floe serve}, killed with SIGKILL and restarted under the
 * load: creates, renames and multi-table transactions are judged clean by its checker, and the
 * checker does count a table renamed and a transaction's snapshot expired behind its back.
 */
class MixedOpsIT {
  private static final Namespace NAMESPACE = Namespace.of("mixed");
  private static final long SEED = Long.getLong("floe.faults.seed", System.currentTimeMillis());

  @TempDir Path dataDir;

  @Test
  void mixedOperationsSurviveAKillAndTheCheckerCountsTampering() throws Exception {
    // The Iceberg client logs each failed request; the writers count them.
    ((Logger) LoggerFactory.getLogger("org.apache.iceberg")).setLevel(Level.ERROR);
    ((Logger) LoggerFactory.getLogger("org.apache.hc")).setLevel(Level.WARN);
    long began = System.nanoTime();
    try (FloeProcess floe = new FloeProcess(dataDir).start()) {
      try (RESTCatalog setup = connect(floe)) {
        setup.createNamespace(NAMESPACE);
      }
      AtomicBoolean stop = new AtomicBoolean();
      List<MixedOps> writers = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        MixedOps writer = new MixedOps(i, List.of(floe.uri()), NAMESPACE, stop, SEED + i);
        writers.add(writer);
        threads.add(new Thread(writer, "mixed-ops-" + i));
      }
      long loadStart = System.nanoTime();
      threads.forEach(Thread::start);
      awaitProgress(writers);
      floe.kill();
      long killed = System.nanoTime();
      floe.start();
      long restarted = System.nanoTime();
      awaitProgress(writers);
      stop.set(true);
      for (Thread thread : threads) {
        thread.join(60_000);
        assertThat(thread.isAlive()).as("%s stopped", thread.getName()).isFalse();
      }
      long loadEnd = System.nanoTime();
      for (MixedOps writer : writers) {
        assertThat(writer.died()).as("what ended a writer").isNull();
      }

      try (RESTCatalog checker = connect(floe)) {
        MixedOps.Report report = MixedOps.check(checker, writers);
        Map<MixedOps.Kind, Map<MixedOps.Outcome, Long>> tally = tally(writers);
        System.out.printf(
            "MixedOpsIT seed %d: load %.1f s (down %.1f s for the restart), %d failovers;"
                + " %s; %s%n",
            SEED,
            (loadEnd - loadStart) / 1e9,
            (restarted - killed) / 1e9,
            writers.stream().mapToInt(MixedOps::failovers).sum(),
            tally,
            report);

        assertThat(report.problems()).isEmpty();
        assertThat(report.lost()).isZero();
        assertThat(report.duplicates()).isZero();
        assertThat(report.torn()).isZero();
        assertThat(report.refused()).isZero();
        assertThat(report.unknown()).as("outcomes unknown across the kill").isPositive();
        for (MixedOps.Kind kind : MixedOps.Kind.values()) {
          assertThat(tally.get(kind).getOrDefault(MixedOps.Outcome.ACKNOWLEDGED, 0L))
              .as("acknowledged %s", kind)
              .isPositive();
        }

        // Behind the checker's back: rename a table it knows the name of, and expire one side of an
        // acknowledged transaction.
        List<MixedOps.Attempt> attempts = writers.get(0).attempts();
        String victim = knownTable(attempts);
        checker.renameTable(
            TableIdentifier.of(NAMESPACE, victim), TableIdentifier.of(NAMESPACE, "hidden"));
        // The first acknowledged transaction of writer 0 is not the current snapshot of its table
        // once a second one is acknowledged.
        List<MixedOps.Attempt> transactions =
            attempts.stream()
                .filter(a -> a.kind() == MixedOps.Kind.TRANSACTION)
                .filter(a -> a.outcome() == MixedOps.Outcome.ACKNOWLEDGED)
                .toList();
        assertThat(transactions).hasSizeGreaterThan(1);
        MixedOps.Attempt transaction = transactions.get(0);
        Table first = checker.loadTable(TableIdentifier.of(NAMESPACE, transaction.table()));
        long tagged = taggedSnapshot(first, transaction.id());
        first.expireSnapshots().expireSnapshotId(tagged).cleanExpiredFiles(false).commit();

        MixedOps.Report tampered = MixedOps.check(checker, writers);
        System.out.println("MixedOpsIT after tampering: " + tampered);
        assertThat(tampered.lost()).as("the renamed table and the torn transaction").isEqualTo(2);
        assertThat(tampered.torn()).isEqualTo(1);
        assertThat(tampered.duplicates()).isZero();
        assertThat(tampered.problems())
            .hasSize(3)
            .anyMatch(p -> p.startsWith(victim + ": confirmed"))
            .anyMatch(p -> p.startsWith(transaction.id() + " (ACKNOWLEDGED): torn"));
      }
    }
    System.out.printf("MixedOpsIT took %.1f s%n", (System.nanoTime() - began) / 1e9);
  }

  /**
   * Keeps the load on for 3 s, then until every kind has two more acknowledged attempts and writer
   * 0 one more acknowledged transaction than at the start (at most 20 s): a loaded machine still
   * gets enough of each.
   */
  private static void awaitProgress(List<MixedOps> writers) throws InterruptedException {
    Map<MixedOps.Kind, Long> before = acknowledged(writers);
    long transactionsBefore = acknowledged(writers.subList(0, 1)).get(MixedOps.Kind.TRANSACTION);
    long start = System.nanoTime();
    Thread.sleep(3_000);
    while (System.nanoTime() - start < 20_000_000_000L) {
      Map<MixedOps.Kind, Long> now = acknowledged(writers);
      if (before.keySet().stream().allMatch(kind -> now.get(kind) >= before.get(kind) + 2)
          && acknowledged(writers.subList(0, 1)).get(MixedOps.Kind.TRANSACTION)
              > transactionsBefore) {
        return;
      }
      Thread.sleep(200);
    }
  }

  private static Map<MixedOps.Kind, Long> acknowledged(List<MixedOps> writers) {
    Map<MixedOps.Kind, Long> counts = new EnumMap<>(MixedOps.Kind.class);
    for (MixedOps.Kind kind : MixedOps.Kind.values()) {
      counts.put(
          kind,
          writers.stream()
              .flatMap(w -> w.attempts().stream())
              .filter(a -> a.kind() == kind && a.outcome() == MixedOps.Outcome.ACKNOWLEDGED)
              .count());
    }
    return counts;
  }

  /**
   * Setup's and the checker's client: without the writers' 5 s give-up, since after the restart a
   * load may take longer on a loaded machine and nothing here fails over.
   */
  private static RESTCatalog connect(FloeProcess floe) {
    return RestClients.connect(floe.uri(), Map.of());
  }

  private static Map<MixedOps.Kind, Map<MixedOps.Outcome, Long>> tally(List<MixedOps> writers) {
    Map<MixedOps.Kind, Map<MixedOps.Outcome, Long>> tally = new EnumMap<>(MixedOps.Kind.class);
    for (MixedOps.Kind kind : MixedOps.Kind.values()) {
      tally.put(
          kind,
          writers.stream()
              .flatMap(w -> w.attempts().stream())
              .filter(a -> a.kind() == kind)
              .collect(
                  Collectors.groupingBy(
                      MixedOps.Attempt::outcome,
                      () -> new EnumMap<>(MixedOps.Outcome.class),
                      Collectors.counting())));
    }
    return tally;
  }

  /**
   * The name of a table the writer created (acknowledged) as it is now: after its acknowledged
   * renames, with no rename of unknown outcome.
   */
  private static String knownTable(List<MixedOps.Attempt> attempts) {
    Map<String, MixedOps.Attempt> renameFrom =
        attempts.stream()
            .filter(a -> a.kind() == MixedOps.Kind.RENAME)
            .collect(Collectors.toMap(MixedOps.Attempt::table, a -> a));
    for (MixedOps.Attempt create : attempts) {
      if (create.kind() != MixedOps.Kind.CREATE
          || create.outcome() != MixedOps.Outcome.ACKNOWLEDGED) {
        continue;
      }
      String name = create.table();
      MixedOps.Attempt rename = renameFrom.get(name);
      while (rename != null && rename.outcome() == MixedOps.Outcome.ACKNOWLEDGED) {
        name = rename.target();
        rename = renameFrom.get(name);
      }
      if (rename == null) {
        return name;
      }
    }
    throw new AssertionError("no table of known name");
  }

  private static long taggedSnapshot(Table table, String tag) {
    for (Snapshot snapshot : ((HasTableOperations) table).operations().current().snapshots()) {
      if (tag.equals(snapshot.summary().get(MixedOps.TAG))) {
        return snapshot.snapshotId();
      }
    }
    throw new AssertionError(tag + " not on " + table.name());
  }
}
