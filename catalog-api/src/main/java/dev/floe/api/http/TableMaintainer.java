package dev.floe.api.http;

import dev.floe.events.state.TableState;
import dev.floe.infra.config.MaintenanceConfig;
import dev.floe.projections.CatalogQueries;
import dev.floe.projections.NotLocalException;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.util.PropertyUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalog's own table maintenance: every {@code floe.maintenance.interval}, each table this
 * instance holds in a warehouse with {@code floe.warehouse.<w>.maintenance} on, and that the
 * setting and the table's {@code floe.maintenance.enabled} let in ({@link MaintenanceConfig}), has
 * its snapshots expired by its own {@code history.expire.*} properties and the files only they
 * reached deleted, exactly as {@code POST …/expire-snapshots} does, committed by {@value
 * MaintenanceConfig#PRINCIPAL}. A table with {@code gc.enabled=false} is left alone, as Iceberg's
 * own expiry refuses it. A run that expired or deleted something is recorded ({@code
 * floe.table.maintained}). Each table is maintained by the instance holding its state; one whose
 * warehouse directory another instance holds is left to a later round on a single instance (the
 * locations files may be deleted from are the directory's).
 */
public final class TableMaintainer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TableMaintainer.class);

  private final CatalogContext catalog;
  private final MaintenanceConfig config;
  private final SnapshotExpiry expiry;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "floe-maintainer");
            thread.setDaemon(true);
            return thread;
          });

  public TableMaintainer(CatalogContext catalog, MaintenanceConfig config) {
    this.catalog = catalog;
    this.config = config;
    this.expiry = new SnapshotExpiry(catalog);
  }

  /** Starts the rounds when some warehouse has maintenance on; else runs nothing. */
  public void start() {
    if (config.modes().values().stream().allMatch(m -> m == MaintenanceConfig.Mode.OFF)) {
      return;
    }
    long every = config.interval().toMillis();
    scheduler.scheduleWithFixedDelay(this::runOnce, every, every, TimeUnit.MILLISECONDS);
  }

  /** One round over every warehouse with maintenance on. */
  void runOnce() {
    for (String warehouse : config.modes().keySet()) {
      if (config.mode(warehouse) == MaintenanceConfig.Mode.OFF) {
        continue;
      }
      for (TableIdentifier table : catalog.queries().localTables(warehouse)) {
        if (Thread.currentThread().isInterrupted()) {
          return;
        }
        try {
          maintain(warehouse, table);
        } catch (RuntimeException e) {
          LOG.warn(
              "Maintenance of {} in warehouse {} failed; the next round tries again: {}",
              table,
              warehouse,
              e.toString());
        }
      }
    }
  }

  private void maintain(String warehouse, TableIdentifier table) {
    CatalogQueries queries = catalog.queries();
    TableState state = queries.tableNow(warehouse, table);
    if (state == null) {
      return; // dropped, held by a transaction, or moved to another instance meanwhile
    }
    TableMetadata metadata =
        TableMetadataParser.fromJson(state.metadataLocation(), state.metadataJson());
    if (!config.decide(warehouse, metadata.properties()).scheduled()
        || !PropertyUtil.propertyAsBoolean(
            metadata.properties(),
            TableProperties.GC_ENABLED,
            TableProperties.GC_ENABLED_DEFAULT)) {
      return;
    }
    List<String> held;
    try {
      held = queries.heldTableLocations(warehouse, table);
    } catch (NotLocalException elsewhere) {
      return;
    }
    if (held.isEmpty()) {
      return;
    }
    SnapshotExpiry.Subject subject =
        new SnapshotExpiry.Subject(
            warehouse,
            table,
            () ->
                queries.table(warehouse, table).orElseThrow(() -> ApiException.noSuchTable(table)),
            () -> catalog.workHeader(MaintenanceConfig.PRINCIPAL));
    SnapshotExpiry.Result result =
        expiry.expire(subject, null, null, held, true, false, SnapshotExpiry.SCHEDULE);
    if (!result.expired().isEmpty() || result.deletedFiles() > 0) {
      LOG.info(
          "Maintained {} in warehouse {}: {} snapshots expired, {} files ({} bytes) deleted",
          table,
          warehouse,
          result.expired().size(),
          result.deletedFiles(),
          result.deletedBytes());
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
