package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A table's maintenance ran: snapshots were expired (by their own commit, before this) and the
 * files only they reached were deleted. Recorded as {@code floe.table.maintained} while the name
 * still holds that table; keyed by the warehouse, whose directory knows which table holds the name.
 *
 * @param trigger {@code request} (the management API) or {@code schedule} (the catalog's own runs)
 * @param expiredSnapshots how many snapshots the expiry removed
 * @param deletedFiles how many files were deleted
 * @param deletedBytes their size
 * @param keptOutsideTable files only expired snapshots reached that lie outside the table's
 *     locations: never deleted
 */
public record RecordMaintenanceCommand(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    String tableUuid,
    String trigger,
    int expiredSnapshots,
    int remainingSnapshots,
    long deletedFiles,
    long deletedBytes,
    long keptOutsideTable)
    implements CatalogCommand {
  public RecordMaintenanceCommand {
    CatalogCommand.requireHeader(header, warehouse);
    Objects.requireNonNull(identifier, "identifier");
    Objects.requireNonNull(tableUuid, "tableUuid");
    Objects.requireNonNull(trigger, "trigger");
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
