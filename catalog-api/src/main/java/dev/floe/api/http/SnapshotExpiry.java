package dev.floe.api.http;

import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.command.RecordMaintenanceCommand;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.authority.LocationAuthority;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.UpdateRequirements;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshot expiry by the catalog: Iceberg's own {@link ExpireSnapshots} decides which snapshots and
 * refs go (the table's {@code history.expire.*} properties, or the request's limits), and the
 * removal is an ordinary commit through the log, by the principal that asked, requiring every ref
 * where it was: a commit that lands first fails it, and Iceberg plans it again on the table as it
 * is then.
 *
 * <p>Once the removal has committed, Iceberg's own file clean-up compares the table before it with
 * the table as it is after it (read again from the log, so commits that landed meanwhile count) and
 * names the manifest lists, manifests, data and delete files and statistics files that only removed
 * snapshots reach. Of those the catalog deletes only files strictly inside a location its directory
 * holds for the table; a file elsewhere (another table's, or a shared one) is counted and left. A
 * dry run commits nothing and deletes nothing: it names what would go.
 */
final class SnapshotExpiry {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotExpiry.class);

  /** A run through the management API, by the principal that asked: always recorded. */
  static final String REQUEST = "request";

  /** A run of the catalog's own schedule: recorded when it expired or deleted something. */
  static final String SCHEDULE = "schedule";

  /** How many times an expiry is chosen again after commits moved refs onto its snapshots. */
  private static final int MAX_PLANS = 5;

  private final CatalogContext catalog;

  SnapshotExpiry(CatalogContext catalog) {
    this.catalog = catalog;
  }

  /**
   * The table an expiry works on, and who commits: the principal that asked, or the catalog's own
   * maintenance.
   *
   * @param load the table as the catalog holds it now
   * @param header a new command header for each commit, without an idempotency key (a commit that
   *     lost its race is planned again and sent as a new command)
   */
  record Subject(
      String warehouse,
      TableIdentifier table,
      Supplier<TableState> load,
      Supplier<CommandHeader> header) {}

  /**
   * What an expiry removed, or would remove.
   *
   * @param files the files deleted (or that would be), at most {@link #MAX_LISTED_FILES}
   * @param deletedFiles how many files were deleted (or would be)
   * @param deletedBytes their size
   * @param keptOutside files only removed snapshots reach that lie outside the table's locations:
   *     never deleted
   */
  record Result(
      String tableUuid,
      List<Long> expired,
      int remaining,
      List<String> files,
      long deletedFiles,
      long deletedBytes,
      long keptOutside) {}

  /**
   * Runs on a worker thread: each commit waits for its reply.
   *
   * @param olderThanMs expire snapshots older than this (null: the table's properties)
   * @param retainLast keep at least this many (null: the table's properties)
   * @param held the locations the directory holds for the table: the only place files go from
   * @param cleanFiles whether to delete the files only removed snapshots reach
   */
  Result expire(
      Subject subject,
      Long olderThanMs,
      Integer retainLast,
      List<String> held,
      boolean cleanFiles,
      boolean dryRun,
      String trigger) {
    Operations ops = new Operations(subject, dryRun);
    ExpiredFiles cleanup =
        new ExpiredFiles(ops::io, catalog.metadataFiles().locations(), held, dryRun);
    BaseTable iceberg = new BaseTable(ops, "floe." + subject.table());
    List<Snapshot> before;
    for (int plan = 1; ; plan++) {
      // The rules choose the snapshots; naming them again makes Iceberg clean up by reachability
      // (what remains reaches is kept, all else the removed ones reached goes), as Spark's
      // expire_snapshots does, rather than by the main branch's history, which keeps the files the
      // oldest remaining snapshot deleted until it is expired too.
      Set<Long> chosen = new HashSet<>();
      rules(iceberg.expireSnapshots().cleanExpiredFiles(false), olderThanMs, retainLast)
          .apply()
          .forEach(snapshot -> chosen.add(snapshot.snapshotId()));
      if (cleanFiles && !chosen.isEmpty()) {
        requireConfined(ops.current(), held); // read only when the clean-up will read them
      }
      ExpireSnapshots expiry =
          rules(
              iceberg.expireSnapshots().cleanExpiredFiles(cleanFiles).deleteWith(cleanup::delete),
              olderThanMs,
              retainLast);
      for (long id : chosen) {
        expiry = expiry.expireSnapshotId(id);
      }
      before = ops.current().snapshots();
      try {
        expiry.commit();
        break;
      } catch (IllegalArgumentException e) {
        // A commit meanwhile pointed a ref at a chosen snapshot (a rollback to it): Iceberg refuses
        // to remove it before committing anything. Choose again on the table as it is now.
        boolean rolledBackTo =
            ops.refresh().refs().values().stream().anyMatch(r -> chosen.contains(r.snapshotId()));
        if (!rolledBackTo || plan == MAX_PLANS) {
          throw e;
        }
      }
    }
    if (cleanFiles) {
      cleanup.deleteMetadataFilesOutOfLog(ops.current());
    }
    List<Long> remaining = ops.current().snapshots().stream().map(Snapshot::snapshotId).toList();
    List<Long> expired = new ArrayList<>();
    before.stream()
        .map(Snapshot::snapshotId)
        .filter(id -> !remaining.contains(id))
        .forEach(expired::add);
    Result result =
        new Result(
            ops.current().uuid(),
            expired,
            remaining.size(),
            cleanup.listed(),
            cleanup.files(),
            cleanup.bytes(),
            cleanup.outside());
    boolean changed = !expired.isEmpty() || result.deletedFiles() > 0;
    if (!dryRun && (changed || trigger.equals(REQUEST))) {
      record(subject, result, trigger);
    }
    return result;
  }

  /**
   * Records the run as {@code floe.table.maintained}. The files are gone whatever becomes of the
   * record, so a record that fails is logged, not answered.
   */
  private void record(Subject subject, Result result, String trigger) {
    RecordMaintenanceCommand command =
        new RecordMaintenanceCommand(
            subject.header().get(),
            subject.warehouse(),
            subject.table(),
            result.tableUuid(),
            trigger,
            result.expired().size(),
            result.remaining(),
            result.deletedFiles(),
            result.deletedBytes(),
            result.keptOutside());
    try {
      catalog.submit(command).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      LOG.warn(
          "The maintenance of {} in warehouse {} ran but was not recorded: {}",
          subject.table(),
          subject.warehouse(),
          String.valueOf(e.getCause() == null ? e : e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The clean-up reads every snapshot's manifest list and manifests with the catalog's own access:
   * each must lie inside a location the directory holds for the table, as for scan planning, or
   * nothing is expired (a writer chooses these paths; another table's are not read for it).
   */
  private void requireConfined(TableMetadata metadata, List<String> held) {
    LocationAuthority authority = catalog.metadataFiles().locations();
    FileIO io = catalog.metadataFiles().io(metadata.location());
    for (Snapshot snapshot : metadata.snapshots()) {
      String list = snapshot.manifestListLocation();
      boolean confined = list == null || authority.holdsFile(list, held);
      if (confined) {
        for (ManifestFile manifest : snapshot.allManifests(io)) {
          confined &= authority.holdsFile(manifest.path(), held);
        }
      }
      if (!confined) {
        throw new ApiException(
            ErrorType.FORBIDDEN,
            "Cannot clean up after an expiry: snapshot "
                + snapshot.snapshotId()
                + " names a manifest list or manifest outside the locations the catalog holds for"
                + " the table; nothing was expired (expire with clean-files false to keep files)");
      }
    }
  }

  private static ExpireSnapshots rules(
      ExpireSnapshots expiry, Long olderThanMs, Integer retainLast) {
    ExpireSnapshots ruled = expiry;
    if (olderThanMs != null) {
      ruled = ruled.expireOlderThan(olderThanMs);
    }
    if (retainLast != null) {
      ruled = ruled.retainLast(retainLast);
    }
    return ruled;
  }

  /**
   * The table as Iceberg's update code sees it: the stored metadata, and commits sent to the log as
   * the changes and the requirements Iceberg's REST client would send.
   */
  private final class Operations implements TableOperations {
    private final Subject subject;
    private final boolean dryRun;
    private TableMetadata current;
    private boolean committed;

    Operations(Subject subject, boolean dryRun) {
      this.subject = subject;
      this.dryRun = dryRun;
      refresh();
    }

    @Override
    public TableMetadata current() {
      return current;
    }

    @Override
    public TableMetadata refresh() {
      if (dryRun && committed) {
        return current; // the table as the removal would leave it
      }
      TableState state = subject.load().get();
      current = TableMetadataParser.fromJson(state.metadataLocation(), state.metadataJson());
      return current;
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      if (dryRun) {
        current = metadata;
        committed = true;
        return;
      }
      if (metadata.changes().isEmpty()) {
        return; // nothing to expire: no command (a scheduled round sends none for such a table)
      }
      // Every ref of the base must still be where it was: a commit that moved one meanwhile (a
      // rollback to a snapshot being expired, say) fails this one, which is planned again.
      List<UpdateRequirement> requirements =
          new ArrayList<>(UpdateRequirements.forUpdateTable(base, metadata.changes()));
      base.refs()
          .forEach(
              (name, ref) ->
                  requirements.add(
                      new UpdateRequirement.AssertRefSnapshotID(name, ref.snapshotId())));
      CommitTableCommand command =
          new CommitTableCommand(
              subject.header().get(),
              subject.warehouse(),
              subject.table(),
              requirements,
              metadata.changes());
      try {
        catalog.submit(command).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof ApiException api && api.status() == 409) {
          throw new CommitFailedException("%s", api.getMessage());
        }
        if (e.getCause() instanceof ApiException api && api.status() < 500) {
          throw api;
        }
        throw new CommitStateUnknownException(e.getCause());
      } catch (TimeoutException e) {
        throw new CommitStateUnknownException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CommitStateUnknownException(e);
      }
      refresh();
    }

    @Override
    public FileIO io() {
      return catalog.metadataFiles().io(current.location());
    }

    @Override
    public String metadataFileLocation(String fileName) {
      throw new UnsupportedOperationException("The catalog writes metadata files itself");
    }

    @Override
    public LocationProvider locationProvider() {
      return LocationProviders.locationsFor(current.location(), current.properties());
    }
  }
}
