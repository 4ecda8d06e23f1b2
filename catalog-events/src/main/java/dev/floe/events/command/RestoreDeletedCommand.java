package dev.floe.events.command;

import dev.floe.events.Keys;
import dev.floe.events.state.DeletedEntity;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Restore a dropped table, view or namespace kept for its recovery period.
 *
 * @param kind {@code table}, {@code view} or {@code namespace}
 * @param identifier the name it had when it was dropped (a namespace's: {@link
 *     DeletedEntity#identifierOf})
 * @param uuid which of several dropped entities of that name; null for the one dropped last
 * @param as the name to restore it under in the same namespace, or null for its own
 */
public record RestoreDeletedCommand(
    CommandHeader header,
    String warehouse,
    String kind,
    TableIdentifier identifier,
    String uuid,
    String as)
    implements CatalogCommand {
  public RestoreDeletedCommand {
    CatalogCommand.requireTarget(header, warehouse, identifier);
    if (!DeletedEntity.TABLE.equals(kind)
        && !DeletedEntity.VIEW.equals(kind)
        && !DeletedEntity.NAMESPACE.equals(kind)) {
      throw new IllegalArgumentException("kind must be table, view or namespace: " + kind);
    }
    if (DeletedEntity.NAMESPACE.equals(kind) && (uuid != null || as != null)) {
      throw new IllegalArgumentException("A namespace is restored in place, by its name alone");
    }
  }

  /** The name it answers under once restored. */
  public TableIdentifier target() {
    return as == null ? identifier : TableIdentifier.of(identifier.namespace(), as);
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
