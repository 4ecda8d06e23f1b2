package dev.floe.api.http;

import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.state.TableState;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.UpdateRequirements;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.LocationProvider;

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
  /** The most file locations one answer names; counts and bytes cover all. */
  static final int MAX_LISTED_FILES = 10_000;

  private final CatalogContext catalog;

  SnapshotExpiry(CatalogContext catalog) {
    this.catalog = catalog;
  }

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
      RequestContext request,
      String warehouse,
      TableIdentifier table,
      Long olderThanMs,
      Integer retainLast,
      List<String> held,
      boolean cleanFiles,
      boolean dryRun) {
    Operations ops = new Operations(request, warehouse, table, dryRun);
    Cleanup cleanup = new Cleanup(ops, held, dryRun);
    BaseTable iceberg = new BaseTable(ops, "floe." + table);
    // The rules choose the snapshots; naming them again makes Iceberg clean up by reachability
    // (what remains reaches is kept, all else the removed ones reached goes), as Spark's
    // expire_snapshots does, rather than by the main branch's history, which keeps the files the
    // oldest remaining snapshot deleted until it is expired too.
    List<Snapshot> chosen =
        rules(iceberg.expireSnapshots().cleanExpiredFiles(false), olderThanMs, retainLast).apply();
    ExpireSnapshots expiry =
        rules(
            iceberg.expireSnapshots().cleanExpiredFiles(cleanFiles).deleteWith(cleanup::delete),
            olderThanMs,
            retainLast);
    for (Snapshot snapshot : chosen) {
      expiry = expiry.expireSnapshotId(snapshot.snapshotId());
    }
    List<Snapshot> before = ops.current().snapshots();
    expiry.commit();
    List<Long> remaining = ops.current().snapshots().stream().map(Snapshot::snapshotId).toList();
    List<Long> expired = new ArrayList<>();
    before.stream()
        .map(Snapshot::snapshotId)
        .filter(id -> !remaining.contains(id))
        .forEach(expired::add);
    return new Result(
        expired,
        remaining.size(),
        List.copyOf(cleanup.listed),
        cleanup.files.sum(),
        cleanup.bytes.sum(),
        cleanup.outside.sum());
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

  /** Iceberg's clean-up deletes through this: only files the table holds, counted as they go. */
  private final class Cleanup {
    private final Operations ops;
    private final List<String> held;
    private final boolean dryRun;
    private final List<String> listed = Collections.synchronizedList(new ArrayList<>());
    private final LongAdder files = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder outside = new LongAdder();

    Cleanup(Operations ops, List<String> held, boolean dryRun) {
      this.ops = ops;
      this.held = held;
      this.dryRun = dryRun;
    }

    void delete(String file) {
      if (!catalog.metadataFiles().locations().holdsFile(file, held)) {
        outside.increment();
        return;
      }
      FileIO io = ops.io();
      InputFile input = io.newInputFile(file);
      long size;
      try {
        size = input.getLength();
      } catch (NotFoundException | UncheckedIOException e) {
        if (!input.exists()) {
          return; // gone already: nothing to reclaim
        }
        throw e;
      }
      InputFile checksum = checksumOf(io, file);
      if (checksum != null) {
        size += checksum.getLength();
      }
      if (!dryRun) {
        io.deleteFile(file);
        if (checksum != null) {
          io.deleteFile(checksum.location());
        }
      }
      files.increment();
      bytes.add(size);
      if (listed.size() < MAX_LISTED_FILES) {
        listed.add(file);
      }
    }
  }

  /**
   * The checksum Hadoop's local file system writes beside a file it wrote ({@code .<name>.crc}), if
   * there is one: it goes with its file.
   */
  private static InputFile checksumOf(FileIO io, String file) {
    if (!file.startsWith("file:")) {
      return null;
    }
    int slash = file.lastIndexOf('/');
    InputFile checksum =
        io.newInputFile(file.substring(0, slash + 1) + "." + file.substring(slash + 1) + ".crc");
    return checksum.exists() ? checksum : null;
  }

  /**
   * The table as Iceberg's update code sees it: the stored metadata, and commits sent to the log as
   * the changes and the requirements Iceberg's REST client would send.
   */
  private final class Operations implements TableOperations {
    private final RequestContext request;
    private final String warehouse;
    private final TableIdentifier table;
    private final boolean dryRun;
    private TableMetadata current;
    private boolean committed;

    Operations(RequestContext request, String warehouse, TableIdentifier table, boolean dryRun) {
      this.request = request;
      this.warehouse = warehouse;
      this.table = table;
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
      TableState state = catalog.table(request, warehouse, table);
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
              catalog.header(request), warehouse, table, requirements, metadata.changes());
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
