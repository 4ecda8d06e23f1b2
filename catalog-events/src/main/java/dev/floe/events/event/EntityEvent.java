package dev.floe.events.event;

import dev.floe.events.Keys;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * An event about one table or view, keyed by that entity's name: the key of the commands that
 * change it.
 */
public sealed interface EntityEvent extends CatalogEvent
    permits TableCreatedEvent,
        TableCommittedEvent,
        TableDroppedEvent,
        TableRenamedEvent,
        TableRegisteredEvent,
        TableRestoredEvent,
        ViewCreatedEvent,
        ViewReplacedEvent,
        ViewDroppedEvent,
        ViewRenamedEvent,
        ViewRegisteredEvent,
        ViewRestoredEvent {

  /** The entity's name once the event has happened. */
  TableIdentifier identifier();

  @Override
  default String subject() {
    return identifier().toString();
  }

  @Override
  default String key() {
    return Keys.table(warehouse(), identifier());
  }
}
