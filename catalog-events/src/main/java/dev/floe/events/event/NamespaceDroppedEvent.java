package dev.floe.events.event;

import dev.floe.events.Keys;
import org.apache.iceberg.catalog.Namespace;

public record NamespaceDroppedEvent(
    String warehouse, Namespace namespace, String commandId, String principal, long sequence)
    implements CatalogEvent {

  @Override
  public String subject() {
    return namespace.toString();
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
