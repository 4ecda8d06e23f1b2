package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.DataFileEntries;
import dev.floe.server.it.support.RestClients;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight clients append to one table at once, each commit guarded by {@code assert-ref-snapshot-id}
 * (Iceberg's fast append sends it) and with client retries off, so every race is visible: exactly
 * one commit wins per base snapshot, every winner's snapshot is in the final history exactly once,
 * and every loser got 409 {@link CommitFailedException}.
 */
class ConcurrentCommitsIT {
  private static final int CLIENTS = 8;
  private static final int ATTEMPTS_PER_CLIENT = 6;
  private static final TableIdentifier HOT = TableIdentifier.of(Namespace.of("bench"), "hot");

  @TempDir Path dataDir;

  @Test
  void everyAcknowledgedAppendIsInTheHistoryExactlyOnceAndLosersGet409() throws Exception {
    appendAtOnce(Map.of());
  }

  /**
   * The same with the API writing ahead (docs/architecture.md, <i>Writing ahead</i>): commits under
   * way at once are decided one on the other, and a loser's requirement fails on the state the
   * winner before it leaves.
   */
  @Test
  void theSameHoldsWhenTheApiWritesAhead() throws Exception {
    appendAtOnce(Map.of("floe.warehouse.default.write-ahead", "on"));
  }

  private void appendAtOnce(Map<String, String> properties) throws Exception {
    try (FloeProcess floe = new FloeProcess(dataDir, properties).start()) {
      try (RESTCatalog admin = RestClients.connect(floe.uri(), Map.of())) {
        admin.createNamespace(HOT.namespace());
        Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
        admin.createTable(
            HOT,
            schema,
            PartitionSpec.unpartitioned(),
            new HashMap<>(Map.of(TableProperties.COMMIT_NUM_RETRIES, "0")));
      }

      Map<String, Long> acknowledged = new ConcurrentHashMap<>();
      AtomicInteger conflicts = new AtomicInteger();
      List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
      CountDownLatch go = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
      List<Future<?>> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        clients.add(
            pool.submit(
                () -> {
                  try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
                    go.await();
                    for (int i = 0; i < ATTEMPTS_PER_CLIENT; i++) {
                      Table table = catalog.loadTable(HOT);
                      DataFile file = DataFileEntries.of(table, "x");
                      try {
                        table.newFastAppend().appendFile(file).commit();
                        acknowledged.put(file.location(), table.currentSnapshot().snapshotId());
                      } catch (CommitFailedException e) {
                        conflicts.incrementAndGet();
                      } catch (RuntimeException e) {
                        unexpected.add(e);
                      }
                    }
                  }
                  return null;
                }));
      }
      go.countDown();
      for (Future<?> client : clients) {
        client.get();
      }
      pool.shutdown();

      assertThat(unexpected).as("only 409s are allowed to fail a commit").isEmpty();
      assertThat(acknowledged.size() + conflicts.get()).isEqualTo(CLIENTS * ATTEMPTS_PER_CLIENT);
      assertThat(acknowledged).isNotEmpty();

      try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
        Table table = catalog.loadTable(HOT);
        List<Snapshot> history = new ArrayList<>();
        SnapshotUtil.ancestorsOf(table.currentSnapshot().snapshotId(), table::snapshot)
            .forEach(history::add);
        // Linear: the main branch's ancestry holds every snapshot the table has.
        assertThat(history).hasSameSizeAs(table.snapshots());
        assertThat(table.refs()).containsOnlyKeys(SnapshotRef.MAIN_BRANCH);

        Map<String, Integer> appearances = new HashMap<>();
        for (Snapshot snapshot : history) {
          for (DataFile added : snapshot.addedDataFiles(table.io())) {
            appearances.merge(added.location(), 1, Integer::sum);
          }
        }
        assertThat(appearances.keySet()).containsExactlyInAnyOrderElementsOf(acknowledged.keySet());
        assertThat(appearances.values()).allMatch(count -> count == 1);
        // Sequence numbers are dense: one per acknowledged commit.
        assertThat(table.currentSnapshot().sequenceNumber()).isEqualTo(acknowledged.size());
        for (Map.Entry<String, Long> ack : acknowledged.entrySet()) {
          assertThat(table.snapshot(ack.getValue()))
              .as("snapshot acknowledged for %s", ack.getKey())
              .isNotNull();
        }
      }
    }
  }
}
