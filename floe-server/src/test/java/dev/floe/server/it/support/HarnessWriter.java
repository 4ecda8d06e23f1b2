package dev.floe.server.it.support;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.SessionCatalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.exceptions.ServiceFailureException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.rest.HTTPClient;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.RESTUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One writer of the fault harness: fast appends with Iceberg's {@link RESTCatalog} (each commit
 * sends {@code assert-ref-snapshot-id}), to the tables in shuffled rounds, as fast as it can, through one instance
 * at a time. On anything but a 409 it records the outcome as unknown and fails over to the next
 * instance, as an engine behind a load balancer would. 409s between writers are retried by the
 * Iceberg client itself ({@code commit.retry.num-retries} is high on the harness's tables). After
 * each acknowledged commit it loads the table from every instance ({@link ReadYourWrites}).
 */
public final class HarnessWriter implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(HarnessWriter.class);
  private static final int SOCKET_TIMEOUT_MS = 5_000;

  private final int id;
  private final List<String> uris;
  private final List<TableIdentifier> tables;
  private final CommitLog log;
  private final ReadYourWrites readYourWrites;
  private final AtomicBoolean stop;
  private final Random random;
  private final InstanceClients clients;
  private final Map<TableIdentifier, Table> loaded = new HashMap<>();
  private final List<TableIdentifier> round = new ArrayList<>();
  private long sequence;
  private volatile CommitLog.Attempt current;
  private volatile Throwable died;

  public HarnessWriter(
      int id,
      List<String> uris,
      List<TableIdentifier> tables,
      CommitLog log,
      ReadYourWrites readYourWrites,
      AtomicBoolean stop,
      long seed) {
    this.id = id;
    this.uris = uris;
    this.tables = tables;
    this.log = log;
    this.readYourWrites = readYourWrites;
    this.stop = stop;
    this.random = new Random(seed);
    this.clients = new InstanceClients(uris, id, this::observe);
  }

  public int failovers() {
    return clients.failovers();
  }

  /** What ended this writer other than being asked to stop, or null. */
  public Throwable died() {
    return died;
  }

  @Override
  public void run() {
    try {
      while (!stop.get()) {
        if (clients.reroute()) {
          loaded.clear();
        }
        TableIdentifier table = nextTable();
        Table loadedTable;
        try {
          loadedTable = table(table);
        } catch (RuntimeException e) {
          failover(e);
          continue;
        }
        commitOnce(table, loadedTable);
      }
    } catch (Throwable e) {
      died = e;
      LOG.error("Writer {} died", id, e);
    } finally {
      clients.close();
    }
  }

  /**
   * The tables in rounds, each round in a new random order: writers still collide on tables at
   * random, but every table gets an attempt within a round, so a table a fault held up is tried
   * again soon after it recovers (a fault's window measures the fault, not how long the writers
   * took to pick the table).
   */
  private TableIdentifier nextTable() {
    if (round.isEmpty()) {
      round.addAll(tables);
      Collections.shuffle(round, random);
    }
    return round.remove(round.size() - 1);
  }

  private void commitOnce(TableIdentifier table, Table loadedTable) {
    String tag = "w" + id + "-" + ++sequence;
    CommitLog.Attempt attempt = log.begin(tag, id, table.toString(), clients.instance());
    current = attempt;
    try {
      loadedTable
          .newFastAppend()
          .appendFile(DataFileEntries.of(loadedTable, "x"))
          .set(CommitLog.TAG, tag)
          .commit();
      Long committed = snapshotTagged(loadedTable, tag);
      attempt.acknowledged(committed);
      if (committed != null) {
        readYourWrites.check(table, committed);
      }
    } catch (CommitFailedException e) {
      attempt.rejected(e);
      loaded.remove(table);
    } catch (RuntimeException e) {
      if (outcomeUnknown(e)) {
        // A 5xx, or the connection failed: the commit may or may not have been applied.
        attempt.unknown(e);
        failover(e);
      } else {
        // Any other answer (a 4xx) says the commit was not applied; none is expected here.
        attempt.refused(e);
        loaded.remove(table);
      }
    } finally {
      current = null;
    }
  }

  /**
   * Whether a failed commit may still have been applied: a 5xx (the commit handler turns 500, 502,
   * 503 and 504 into CommitStateUnknownException) or a bare RESTException (the connection failed or
   * the answer was unreadable). Its 4xx subclasses are answers.
   */
  static boolean outcomeUnknown(RuntimeException e) {
    return e instanceof CommitStateUnknownException
        || e instanceof ServiceFailureException
        || e instanceof ServiceUnavailableException
        || e.getClass() == RESTException.class;
  }

  /** The id of the snapshot this attempt added, as the client's table now knows it. */
  private static Long snapshotTagged(Table table, String tag) {
    for (Snapshot snapshot : ((HasTableOperations) table).operations().current().snapshots()) {
      if (tag.equals(snapshot.summary().get(CommitLog.TAG))) {
        return snapshot.snapshotId();
      }
    }
    return null;
  }

  private Table table(TableIdentifier table) {
    Table known = loaded.get(table);
    if (known == null) {
      known = catalog().loadTable(table);
      loaded.put(table, known);
    }
    return known;
  }

  private RESTCatalog catalog() {
    return clients.catalog();
  }

  private void observe(String path, Long addedSnapshotId, String message) {
    CommitLog.Attempt attempt = current;
    if (attempt != null) {
      log.conflict(attempt, addedSnapshotId, message);
    }
  }

  private void failover(RuntimeException cause) {
    loaded.clear();
    if (!clients.failover("Writer " + id, cause)) {
      stop.set(true);
    }
  }

  /** Iceberg's RESTCatalog as an engine configures it, with 409s reported to {@code observer}. */
  public static RESTCatalog connect(String uri, ObservedRestClient.ConflictObserver observer) {
    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, uri);
    props.put(CatalogProperties.WAREHOUSE_LOCATION, "default");
    props.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.hadoop.HadoopFileIO");
    // As an engine behind a load balancer: give up on an instance that does not answer (a paused
    // one accepts connections and never answers) and try the next.
    props.put("rest.client.connection-timeout-ms", "1000");
    props.put("rest.client.socket-timeout-ms", String.valueOf(SOCKET_TIMEOUT_MS));
    // No commit reports: Iceberg sends every client's reports of a JVM through one thread and each
    // commit waits for its own, so one report sent to a frozen instance just before it froze held
    // every writer of the harness (separate engines in production, one JVM here) for as long as
    // the socket timeout, and reports queued behind it for as long again each.
    props.put("rest-metrics-reporting-enabled", "false");
    RESTCatalog catalog =
        new RESTCatalog(
            SessionCatalog.SessionContext.createEmpty(),
            config ->
                new ObservedRestClient(
                    HTTPClient.builder(config)
                        .uri(config.get(CatalogProperties.URI))
                        .withHeaders(RESTUtil.configHeaders(config))
                        .build(),
                    observer));
    catalog.setConf(new Configuration());
    catalog.initialize("floe", props);
    return catalog;
  }
}
