package dev.floe.api.http;

import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.state.TableState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * Snapshot expiry by the catalog: Iceberg's own {@link ExpireSnapshots} decides which snapshots and
 * refs go (the table's {@code history.expire.*} properties, or the request's limits), and the
 * removal is an ordinary commit through the log, by the principal that asked, requiring every ref
 * where it was: a commit that lands first fails it, and Iceberg plans it again on the table as it
 * is then. Files stay (the orphan report lists them until their deletion comes).
 */
final class SnapshotExpiry {
  private final CatalogContext catalog;

  SnapshotExpiry(CatalogContext catalog) {
    this.catalog = catalog;
  }

  /** What an expiry removed, or would remove. */
  record Result(List<Long> expired, int remaining) {}

  /**
   * Runs on a worker thread: each commit waits for its reply.
   *
   * @param olderThanMs expire snapshots older than this (null: the table's properties)
   * @param retainLast keep at least this many (null: the table's properties)
   */
  Result expire(
      RequestContext request,
      String warehouse,
      TableIdentifier table,
      Long olderThanMs,
      Integer retainLast,
      boolean dryRun) {
    Operations ops = new Operations(request, warehouse, table);
    ExpireSnapshots expiry =
        new BaseTable(ops, "floe." + table).expireSnapshots().cleanExpiredFiles(false);
    if (olderThanMs != null) {
      expiry = expiry.expireOlderThan(olderThanMs);
    }
    if (retainLast != null) {
      expiry = expiry.retainLast(retainLast);
    }
    List<Long> expired = new ArrayList<>();
    if (dryRun) {
      expiry.apply().forEach(snapshot -> expired.add(snapshot.snapshotId()));
      return new Result(expired, ops.current().snapshots().size() - expired.size());
    }
    List<Snapshot> before = ops.current().snapshots();
    expiry.commit();
    TableMetadata after = ops.refresh();
    List<Long> remaining = after.snapshots().stream().map(Snapshot::snapshotId).toList();
    before.stream()
        .map(Snapshot::snapshotId)
        .filter(id -> !remaining.contains(id))
        .forEach(expired::add);
    return new Result(expired, remaining.size());
  }

  /**
   * The table as Iceberg's update code sees it: the stored metadata, and commits sent to the log as
   * the changes and the requirements Iceberg's REST client would send.
   */
  private final class Operations implements TableOperations {
    private final RequestContext request;
    private final String warehouse;
    private final TableIdentifier table;
    private TableMetadata current;

    Operations(RequestContext request, String warehouse, TableIdentifier table) {
      this.request = request;
      this.warehouse = warehouse;
      this.table = table;
      refresh();
    }

    @Override
    public TableMetadata current() {
      return current;
    }

    @Override
    public TableMetadata refresh() {
      TableState state = catalog.table(request, warehouse, table);
      current = TableMetadataParser.fromJson(state.metadataLocation(), state.metadataJson());
      return current;
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
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
