package dev.floe.events.event;

import dev.floe.events.Keys;
import org.apache.iceberg.catalog.TableIdentifier;

/** A view was dropped. */
public record ViewDroppedEvent(
    String warehouse,
    TableIdentifier identifier,
    String viewUuid,
    String metadataLocation,
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
    return Keys.table(warehouse, identifier);
  }
}
