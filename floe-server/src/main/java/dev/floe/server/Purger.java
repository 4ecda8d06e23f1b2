package dev.floe.server;

import dev.floe.client.CommandGateway;
import dev.floe.client.Uuid7;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CompletePurgeCommand;
import dev.floe.events.state.PendingAreaPurge;
import dev.floe.infra.config.FloeConfig;
import dev.floe.infra.storage.MetadataFiles;
import dev.floe.infra.storage.authority.Claims;
import dev.floe.projections.CatalogQueries;
import dev.floe.projections.NotLocalException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the files of tables dropped with {@code purgeRequested=true}, later and apart from the
 * drop itself: the drop removes the catalog entry at once and leaves each location the table held
 * reserved in the directory; no table or view can be placed over a reserved location. Before it
 * deletes, the purger asks the location authority again: the location must lie strictly inside a
 * storage root of the warehouse and no live table or view may hold any part of it. Once the files
 * are gone, a {@link CompletePurgeCommand} frees the location and records {@code
 * floe.table.files-purged}; a location the check refuses is not touched, and its refusal is logged
 * and recorded as {@code floe.table.purge-refused}. Deleting twice is harmless, so several
 * instances may run it.
 */
final class Purger implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Purger.class);

  private final FloeConfig config;
  private final CatalogQueries queries;
  private final MetadataFiles files;
  private final CommandGateway gateway;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "floe-purger");
            thread.setDaemon(true);
            return thread;
          });

  Purger(FloeConfig config, CatalogQueries queries, MetadataFiles files, CommandGateway gateway) {
    this.config = config;
    this.queries = queries;
    this.files = files;
    this.gateway = gateway;
  }

  void start(Duration interval) {
    scheduler.scheduleWithFixedDelay(
        this::purgeOnce, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  void purgeOnce() {
    for (String warehouse : config.warehouses().keySet()) {
      try {
        for (String location : queries.pendingPurges(warehouse)) {
          purge(warehouse, location);
        }
        for (PendingAreaPurge area : queries.pendingAreaPurges(warehouse)) {
          purgeArea(warehouse, area);
        }
      } catch (NotLocalException e) {
        // Another instance hosts this warehouse's directory: its purger does the work.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        LOG.warn("Purge in warehouse {} failed; will retry: {}", warehouse, e.toString());
      }
    }
  }

  private void purge(String warehouse, String location) throws Exception {
    Optional<String> refusal =
        files.locations().purgeProblem(warehouse, location, queries.liveClaims(warehouse));
    if (refusal.isPresent()) {
      LOG.error(
          "Refusing to purge {} in warehouse {}: {}; nothing was deleted",
          location,
          warehouse,
          refusal.get());
    } else {
      files.deleteAll(location);
    }
    complete(warehouse, location, refusal);
    if (refusal.isEmpty()) {
      LOG.info("Purged the files of a dropped table at {}", location);
    }
  }

  /**
   * Empties an expired namespace's storage area of what it held: every file under it written before
   * the expunge, except those a live entity holds (a namespace created again under that name places
   * its tables there). A file written after the expunge is never deleted: it belongs to something
   * new (a table staged in a namespace created again holds no location yet).
   */
  private void purgeArea(String warehouse, PendingAreaPurge area) throws Exception {
    Optional<String> refusal =
        config.deletesExpiredNamespaceFiles(warehouse)
            ? files.locations().areaPurgeProblem(warehouse, area.location())
            : Optional.of("kept: floe.warehouse." + warehouse + ".expired-namespace-files is keep");
    long deleted = 0;
    if (refusal.isEmpty()) {
      deleted =
          files.deleteOlderUnder(
              area.location(),
              area.expungedAtMs(),
              () -> {
                Claims live = queries.liveClaims(warehouse);
                return file -> files.locations().heldByLive(file, live);
              });
    } else {
      LOG.warn(
          "Not emptying {} of warehouse {}, an expired namespace's area: {}",
          area.location(),
          warehouse,
          refusal.get());
    }
    complete(warehouse, area.location(), refusal);
    if (refusal.isEmpty()) {
      LOG.info("Deleted {} files left in an expired namespace's area {}", deleted, area.location());
    }
  }

  private void complete(String warehouse, String location, Optional<String> refusal)
      throws Exception {
    CommandHeader header =
        new CommandHeader(
            Uuid7.next().toString(),
            System.currentTimeMillis(),
            "floe-purger",
            gateway.instanceId(),
            null);
    gateway
        .submit(new CompletePurgeCommand(header, warehouse, location, refusal.orElse(null)))
        .get(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
