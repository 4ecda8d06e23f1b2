package dev.floe.events.event;

import dev.floe.events.Keys;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A table's maintenance ran: its snapshot expiry (recorded before as the {@code
 * floe.table.committed} that removed the snapshots) and the deletion of the files only the expired
 * snapshots reached. Keyed by the warehouse: a record of work on the files, not a change of the
 * table, so it takes no place in the table's own sequence.
 *
 * @param trigger {@code request} (the management API) or {@code schedule} (the catalog's own runs)
 */
public record TableMaintainedEvent(
    String warehouse,
    TableIdentifier identifier,
    String tableUuid,
    String trigger,
    int expiredSnapshots,
    int remainingSnapshots,
    long deletedFiles,
    long deletedBytes,
    long keptOutsideTable,
    String commandId,
    String principal,
    long sequence)
    implements CatalogEvent {
  @Override
  public String subject() {
    return identifier.toString();
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.tableMaintained(this);
  }
}
