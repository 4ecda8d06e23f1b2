package dev.floe.events.command;

import dev.floe.events.Keys;
import dev.floe.events.state.DeletedEntity;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * End a dropped table's, view's or namespace's recovery period now: it can no longer be restored,
 * its locations are released, and a table dropped with {@code purgeRequested} has its files deleted
 * unless {@code retainData}. A namespace's expunge expunges what was kept inside it too.
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
    if (!DeletedEntity.TABLE.equals(kind)
        && !DeletedEntity.VIEW.equals(kind)
        && !DeletedEntity.NAMESPACE.equals(kind)) {
      throw new IllegalArgumentException("kind must be table, view or namespace: " + kind);
    }
    if (DeletedEntity.NAMESPACE.equals(kind) && (uuid != null)) {
      throw new IllegalArgumentException("A namespace is restored in place, by its name alone");
    }
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
