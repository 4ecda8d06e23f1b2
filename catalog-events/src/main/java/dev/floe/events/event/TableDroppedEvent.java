package dev.floe.events.event;

import dev.floe.events.Keys;
import org.apache.iceberg.catalog.TableIdentifier;

public record TableDroppedEvent(
    String warehouse,
    TableIdentifier identifier,
    String tableUuid,
    String metadataLocation,
    boolean purgeRequested,
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
