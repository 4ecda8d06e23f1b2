package dev.floe.events.event;

import dev.floe.events.Keys;
import org.apache.iceberg.catalog.Namespace;

/** An event about one namespace, keyed by its warehouse, whose directory holds the namespace. */
public sealed interface NamespaceEvent extends CatalogEvent
    permits NamespaceCreatedEvent,
        NamespacePropertiesUpdatedEvent,
        NamespaceDroppedEvent,
        NamespaceRestoredEvent,
        NamespaceExpungedEvent {

  Namespace namespace();

  @Override
  default String subject() {
    return namespace().toString();
  }

  @Override
  default String key() {
    return Keys.warehouse(warehouse());
  }
}
