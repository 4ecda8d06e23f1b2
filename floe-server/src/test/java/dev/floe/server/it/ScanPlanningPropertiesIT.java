package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.infra.testing.ServerMetrics;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.PlannedTasks;
import dev.floe.server.it.support.RandomTables;
import dev.floe.server.it.support.RestClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Server-side scan planning plans exactly what Iceberg's client plans: for random tables (v2 and
 * v3, partitioned or not, with position and equality deletes, deletion vectors, several specs and
 * schemas) and random scans (filters, projections, case sensitivity, column stats, time travel,
 * incremental appends), the file scan tasks of {@code scan-planning-mode=server} equal local
 * planning's: the same data files, the same delete files for each, equivalent residuals. Through a
 * reader's token, at the defaults.
 */
class ScanPlanningPropertiesIT {
  private static final Namespace NAMESPACE = Namespace.of("planned");
  private static final AtomicInteger TABLES = new AtomicInteger();

  private static FloeProcess floe;
  private static String readerToken;
  private static RESTCatalog writer;
  private static RESTCatalog local;
  private static RESTCatalog server;

  @BeforeContainer
  static void start() throws Exception {
    Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "planning-");
    floe = new FloeProcess(dir, Map.of("floe.auth", "token")).start();
    String writerToken = AuthHttp.writerToken(floe, "planner-writer");
    readerToken = AuthHttp.principalWithToken(floe.uri(), floe.adminToken(), "planner-reader");
    AuthHttp.expect(
        204,
        floe.uri(),
        "PUT",
        "/management/v1/principals/planner-reader/roles/default",
        floe.adminToken(),
        "{\"role\":\"reader\"}");
    writer = RestClients.connect(floe.uri(), Map.of("token", writerToken));
    local = RestClients.connect(floe.uri(), Map.of("token", readerToken));
    server =
        RestClients.connect(
            floe.uri(), Map.of("token", readerToken, "scan-planning-mode", "server"));
    writer.createNamespace(NAMESPACE);
  }

  @AfterContainer
  static void stop() throws Exception {
    for (RESTCatalog catalog : new RESTCatalog[] {writer, local, server}) {
      if (catalog != null) {
        catalog.close();
      }
    }
    if (floe != null) {
      floe.close();
    }
  }

  @Property(tries = 15)
  void serverPlansEqualClientPlans(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 14) int steps) throws Exception {
    TableIdentifier name = TableIdentifier.of(NAMESPACE, "t" + TABLES.incrementAndGet());
    RandomTables.create(writer, name, seed, steps);
    Table client = local.loadTable(name);
    Table served = server.loadTable(name);
    long plansBefore = ServerMetrics.answered(floe, "tables/{table}/plan", 200);
    Random random = new Random(seed * 31 + steps);
    List<Snapshot> history = new ArrayList<>();
    client.snapshots().forEach(history::add);
    for (int i = 0; i < 6; i++) {
      boolean caseSensitive = random.nextInt(4) != 0;
      Expression filter = RandomTables.filter(random, 2, !caseSensitive);
      Long snapshotId =
          random.nextInt(3) == 0 ? history.get(random.nextInt(history.size())).snapshotId() : null;
      List<String> select =
          switch (random.nextInt(3)) {
            case 0 -> null;
            case 1 -> List.of(caseSensitive ? "id" : "ID");
            default -> List.of("category", "id");
          };
      boolean stats = random.nextBoolean();
      String scan =
          "filter "
              + filter
              + ", snapshot "
              + snapshotId
              + ", select "
              + select
              + ", stats "
              + stats
              + ", case-sensitive "
              + caseSensitive;
      assertThat(
              PlannedTasks.of(
                  configure(served.newScan(), filter, snapshotId, select, stats, caseSensitive)))
          .as(scan)
          .isEqualTo(
              PlannedTasks.of(
                  configure(client.newScan(), filter, snapshotId, select, stats, caseSensitive)));
    }
    // Each of the served table's scans was planned by the catalog.
    assertThat(ServerMetrics.answered(floe, "tables/{table}/plan", 200) - plansBefore).isEqualTo(6);
  }

  @Property(tries = 10)
  void incrementalPlansEqualClientPlans(
      @ForAll long seed, @ForAll @IntRange(min = 2, max = 12) int steps) {
    TableIdentifier name = TableIdentifier.of(NAMESPACE, "i" + TABLES.incrementAndGet());
    RandomTables.create(writer, name, seed, steps);
    Table client = local.loadTable(name);
    List<Snapshot> history = new ArrayList<>();
    client.snapshots().forEach(history::add);
    Random random = new Random(seed);
    int from = random.nextInt(history.size() - 1);
    int to = from + 1 + random.nextInt(history.size() - from - 1);
    long start = history.get(from).snapshotId();
    long end = history.get(to).snapshotId();
    Expression filter = RandomTables.filter(random, 2, false);
    assertThat(PlannedTasks.served(floe.uri(), readerToken, client, name, start, end, filter))
        .as("appends after %s up to %s, filter %s", start, end, filter)
        .isEqualTo(
            PlannedTasks.of(
                client
                    .newIncrementalAppendScan()
                    .fromSnapshotExclusive(start)
                    .toSnapshot(end)
                    .filter(filter)
                    .planFiles()));
  }

  private static TableScan configure(
      TableScan scan,
      Expression filter,
      Long snapshotId,
      List<String> select,
      boolean stats,
      boolean caseSensitive) {
    TableScan configured = scan.caseSensitive(caseSensitive);
    if (snapshotId != null) {
      configured = configured.useSnapshot(snapshotId);
    }
    configured = configured.filter(filter);
    if (select != null) {
      configured = configured.select(select);
    }
    if (stats) {
      configured = configured.includeColumnStats(List.of("id"));
    }
    return configured;
  }
}
