package dev.floe.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The workloads, modelled on Apache Polaris's benchmark suite (namespace tree, reads, mixed
 * read/update, commits over many tables, one hot table, a table with many snapshots, a namespace
 * with many tables). Each runs the same requests against whichever catalog it is given.
 */
final class Workloads {
  static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";

  /**
   * {@code load-table}'s request answered by a server that does nothing ({@link NoopServer}) with
   * this catalog's answer: what the machine allows before the catalog does any work.
   */
  static final String NOOP_SERVER = "load-table-noop-server";

  /**
   * Reading the event log through {@code POST /v1/{prefix}/events} ({@link EventsRead}): measured
   * by {@link #events()}, not {@link #run}, as one result per page size.
   */
  static final String EVENTS = "events";

  /** Workloads that need a set-up of their own, measured only when {@code --only} names them. */
  static final Set<String> ON_REQUEST =
      Set.of(SignRequests.WORKLOAD, ScanPlans.SERVER, ScanPlans.CLIENT);

  private final RestTarget target;
  private final RestTarget noisy;
  private final Settings settings;
  private final String run;
  private final List<String> namespaces = new ArrayList<>();
  private final List<String> tables = new ArrayList<>();

  /** The same tables as {@link #tables}, by name: the namespace's levels, then the table's. */
  private final List<List<String>> tableNames = new ArrayList<>();

  private final Map<String, Object> results = new LinkedHashMap<>();
  private final AtomicLong counter = new AtomicLong();

  /** Sizes and durations, the same for every catalog in one run. */
  record Settings(
      int width,
      int depth,
      int tablesPerNamespace,
      int propertiesPerNamespace,
      int clients,
      int durationSeconds,
      int warmupSeconds,
      int openLoopRate,
      int bigSnapshots,
      int manyTables,
      List<Integer> hotWriters,
      int events,
      List<Integer> eventPageSizes) {}

  Workloads(RestTarget target, Settings settings) {
    this(target, target, settings);
  }

  /**
   * @param noisy where {@link Fairness}'s noisy tenant writes: another warehouse of the same
   *     catalog, or {@code target} itself
   */
  Workloads(RestTarget target, RestTarget noisy, Settings settings) {
    this.target = target;
    this.noisy = noisy;
    this.settings = settings;
    this.run = "b" + Long.toString(System.currentTimeMillis() % 10_000_000, 36);
  }

  /** The workloads in the order a run measures them. */
  List<String> names() {
    return names(settings.hotWriters());
  }

  /** The workloads in the order a run with these hot-table writer counts measures them. */
  static List<String> names(List<Integer> hotWriters) {
    List<String> names =
        new ArrayList<>(
            List.of(
                "list-namespaces",
                "namespace-exists",
                "load-namespace",
                "list-tables",
                "table-exists",
                "load-table-1",
                "load-table",
                NOOP_SERVER,
                "load-table-open-loop",
                "mixed-90-10",
                "commit-1",
                "commit-many-tables"));
    for (int writers : hotWriters) {
      names.add("hot-table-" + writers);
    }
    names.addAll(
        List.of(
            "hot-appends-4",
            "big-table-refs",
            "big-table-all",
            "big-table-commit",
            "many-tables-list-paged",
            "many-tables-list-unpaged",
            EVENTS,
            Fairness.WORKLOAD,
            SignRequests.WORKLOAD,
            ScanPlans.SERVER,
            ScanPlans.CLIENT));
    return names;
  }

  /** Creates the namespace tree and its tables; measured as {@code create-tree}. */
  Stats setUp() {
    // Warm-up, as for every workload: trees of the same shape under other roots, unmeasured and
    // dropped again (a catalog that lists namespaces by scanning them all would otherwise answer
    // the later listings slower). The first creates of a just-started server run on a cold JIT.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(settings.warmupSeconds());
    for (int i = 0; System.nanoTime() < deadline; i++) {
      createTree(run + "w" + i, false);
    }
    return createTree(run, true);
  }

  /**
   * Runs a workload unmeasured for the warm-up, then measured. The warm-up lets both catalogs' JIT
   * compilers finish with the workload's code: on 2 cores, C2 compiling Floe took close to a core
   * for the first minute of commits and doubled their latency (bench/notes.md).
   */
  Stats run(String name) {
    if (name.equals(NOOP_SERVER)) {
      return NoopServer.measure(target, tables.get(0), settings);
    }
    if (settings.warmupSeconds() > 0) {
      measure(name, settings.warmupSeconds());
    }
    long server = ServerCpu.treeNanos(target.serverPids);
    long bench = ServerCpu.benchNanos();
    Stats stats = measure(name, settings.durationSeconds());
    long serverAfter = ServerCpu.treeNanos(target.serverPids);
    long benchAfter = ServerCpu.benchNanos();
    stats.cpu(
        server < 0 || serverAfter < 0 ? -1 : serverAfter - server,
        bench < 0 || benchAfter < 0 ? -1 : benchAfter - bench);
    return stats;
  }

  /**
   * The catalog's CPU, in cores, over {@code seconds} with no request from this benchmark; NaN when
   * its processes are not known.
   */
  double idleCores(int seconds) throws InterruptedException {
    long before = ServerCpu.treeNanos(target.serverPids);
    long started = System.nanoTime();
    Thread.sleep(seconds * 1000L);
    long after = ServerCpu.treeNanos(target.serverPids);
    long elapsed = System.nanoTime() - started;
    return before < 0 || after < 0 ? Double.NaN : (after - before) / (double) elapsed;
  }

  private Stats measure(String name, int seconds) {
    String hot = tables.get(0);
    // Set up the big table and the many tables before the clock starts.
    if (name.startsWith("big-table")) {
      big();
    } else if (name.startsWith("many-tables")) {
      many();
    }
    if (name.startsWith("hot-table-")) {
      int writers = Integer.parseInt(name.substring("hot-table-".length()));
      return Load.closedLoop(seconds, writers, () -> commit(hot));
    }
    return switch (name) {
      case "list-namespaces" -> Load.closedLoop(seconds, settings.clients(), this::listNamespaces);
      case "namespace-exists" ->
          Load.closedLoop(seconds, settings.clients(), this::namespaceExists);
      case "load-namespace" -> Load.closedLoop(seconds, settings.clients(), this::loadNamespace);
      case "list-tables" -> Load.closedLoop(seconds, settings.clients(), this::listTables);
      case "table-exists" -> Load.closedLoop(seconds, settings.clients(), this::tableExists);
      case "load-table-1" -> Load.closedLoop(seconds, 1, this::loadTable);
      case "load-table" -> Load.closedLoop(seconds, settings.clients(), this::loadTable);
      case "load-table-open-loop" ->
          Load.openLoop(seconds, settings.openLoopRate(), this::loadTable);
      case "mixed-90-10" -> Load.closedLoop(seconds, settings.clients(), this::mixed);
      case "commit-1" -> Load.closedLoop(seconds, 1, this::commitAnyTable);
      case "commit-many-tables" ->
          Load.closedLoop(seconds, settings.clients(), this::commitAnyTable);
      case "hot-appends-4" -> new HotAppends(target, tables.get(1)).run(seconds, 4);
      case "big-table-refs" ->
          Load.closedLoop(seconds, 1, () -> status("GET", big() + "?snapshots=refs", null));
      case "big-table-all" -> Load.closedLoop(seconds, 1, () -> status("GET", big(), null));
      // What a commit costs on a table whose metadata is megabytes (10,000 snapshots).
      case "big-table-commit" -> Load.closedLoop(seconds, 1, () -> commit(big()));
      case "many-tables-list-paged" -> Load.closedLoop(seconds, 1, () -> listAllPaged(many(), 100));
      case "many-tables-list-unpaged" ->
          Load.closedLoop(
              seconds, 1, () -> status("GET", "namespaces/" + many() + "/tables", null));
      case SignRequests.WORKLOAD ->
          new SignRequests(target, tables.get(0)).run(seconds, settings.clients());
      case ScanPlans.SERVER, ScanPlans.CLIENT -> plans().run(name, seconds);
      default -> throw new IllegalArgumentException("Unknown workload " + name);
    };
  }

  /**
   * The {@link #EVENTS} workload: fills the log with {@code events} changes to the tree's tables,
   * then reads them all at each page size; or, for a catalog that serves no events endpoint, why
   * not.
   */
  Map<String, Object> events() {
    return new EventsRead(target, tableNames, settings).run();
  }

  /** The {@link Fairness#WORKLOAD} workload, its noisy tenant in {@code noisy}. */
  Map<String, Object> fairness() {
    try {
      return new Fairness(target, noisy, settings, run).run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** What setting up the big table and the many tables measured, for the report. */
  Map<String, Object> setUpResults() {
    return results;
  }

  private String bigTable;
  private String manyNamespace;
  private ScanPlans plans;

  /** The scan planning workloads' table, made on first use; its first plans measured. */
  private synchronized ScanPlans plans() {
    if (plans == null) {
      plans = new ScanPlans(target, run);
      results.put(ScanPlans.FIRST, plans.firstPlans());
    }
    return plans;
  }

  private synchronized String big() {
    if (bigTable == null) {
      bigTable = BigTable.register(target, namespaces.get(0), settings.bigSnapshots());
    }
    return bigTable;
  }

  private synchronized String many() {
    if (manyNamespace == null) {
      manyNamespace = manyTables();
    }
    return manyNamespace;
  }

  /**
   * Namespaces {@code width} wide and {@code depth} deep under {@code root}, with tables in the
   * deepest ones; with {@code keep}, the namespaces and tables the other workloads use.
   */
  private Stats createTree(String root, boolean keep) {
    Stats stats = new Stats();
    long start = System.nanoTime();
    NamespaceTree tree = NamespaceTree.create(target, settings, root, stats);
    stats.elapsed(System.nanoTime() - start);
    if (!keep) {
      tree.drop();
      return stats;
    }
    namespaces.addAll(tree.leaves());
    for (int n = 0; n < tree.leaves().size(); n++) {
      for (int t = 0; t < settings.tablesPerNamespace(); t++) {
        tables.add("namespaces/" + tree.leaves().get(n) + "/tables/t" + t);
        List<String> name = new ArrayList<>(tree.leafLevels().get(n));
        name.add("t" + t);
        tableNames.add(name);
      }
    }
    System.err.printf(
        "  %s: create-tree %d namespaces, %d tables%n",
        target.name, tree.leaves().size(), tables.size());
    return stats;
  }

  private int listNamespaces() {
    return status("GET", "namespaces?parent=" + run, null);
  }

  private int namespaceExists() {
    return status("HEAD", "namespaces/" + pick(namespaces), null);
  }

  private int loadNamespace() {
    return status("GET", "namespaces/" + pick(namespaces), null);
  }

  private int listTables() {
    return status("GET", "namespaces/" + pick(namespaces) + "/tables", null);
  }

  private int tableExists() {
    return status("HEAD", pick(tables), null);
  }

  private int loadTable() {
    return status("GET", pick(tables), null);
  }

  private int mixed() {
    return ThreadLocalRandom.current().nextInt(10) == 0 ? commitAnyTable() : loadTable();
  }

  private int commitAnyTable() {
    return commit(pick(tables));
  }

  /** A requirement-free property update: it cannot conflict unless the catalog makes it. */
  private int commit(String table) {
    return status(
        "POST",
        table,
        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"bench\":\""
            + counter.incrementAndGet()
            + "\"}}]}");
  }

  /** One namespace holding {@code manyTables} tables, created by 8 clients. */
  private String manyTables() {
    String ns = run + "_many";
    target.call("POST", "namespaces", "{\"namespace\":[\"" + ns + "\"]}");
    Stats stats = new Stats();
    long start = System.nanoTime();
    Load.parallel(
        settings.manyTables(),
        i -> Load.timed(stats, () -> NamespaceTree.createTable(target, ns, "t" + i)),
        8);
    stats.elapsed(System.nanoTime() - start);
    results.put("many-tables-create", stats.toMap());
    System.err.printf(
        "  %s: created %d tables in one namespace, %.1f ops/s%n",
        target.name, stats.count(), stats.opsPerSecond());
    return RestTarget.encode(ns);
  }

  /** Walks every page; answers the last status. */
  private int listAllPaged(String namespace, int pageSize) {
    String token = null;
    int pages = 0;
    while (true) {
      String query = "?pageSize=" + pageSize + (token == null ? "" : "&pageToken=" + token);
      RestTarget.Response page =
          target.call("GET", "namespaces/" + namespace + "/tables" + query, null);
      if (page.status() != 200) {
        return page.status();
      }
      JsonNode next = page.json().path("next-page-token");
      pages++;
      if (next.isMissingNode() || next.isNull() || next.asText().isEmpty() || pages > 100_000) {
        return 200;
      }
      token = RestTarget.encode(next.asText());
    }
  }

  private int status(String method, String path, String body) {
    return target.call(method, path, body).status();
  }

  private static String pick(List<String> items) {
    return items.get(ThreadLocalRandom.current().nextInt(items.size()));
  }
}
