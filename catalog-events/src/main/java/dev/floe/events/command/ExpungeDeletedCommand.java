package dev.floe.events.command;

import dev.floe.events.Keys;
import dev.floe.events.state.DeletedEntity;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * End a dropped table's or view's recovery period now: it can no longer be restored, its locations
 * are released, and a table dropped with {@code purgeRequested} has its files deleted unless {@code
 * retainData}.
 *
 * @param uuid which of several dropped entities of that name; null for the one dropped last
 */
public record ExpungeDeletedCommand(
    CommandHeader header,
    String warehouse,
    String kind,
    TableIdentifier identifier,
    String uuid,
    boolean retainData)
    implements CatalogCommand {
  public ExpungeDeletedCommand {
    CatalogCommand.requireTarget(header, warehouse, identifier);
    if (!DeletedEntity.TABLE.equals(kind) && !DeletedEntity.VIEW.equals(kind)) {
      throw new IllegalArgumentException("kind must be table or view: " + kind);
    }
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
