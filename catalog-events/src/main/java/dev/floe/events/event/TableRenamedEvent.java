package dev.floe.events.event;

import dev.floe.events.Keys;
import org.apache.iceberg.catalog.TableIdentifier;

/** A table now answers under {@code to} only; its metadata is unchanged. Keyed by the new name. */
public record TableRenamedEvent(
    String warehouse,
    TableIdentifier from,
    TableIdentifier to,
    String tableUuid,
    String metadataLocation,
    String commandId,
    String principal,
    long sequence)
    implements CatalogEvent {

  @Override
  public String subject() {
    return to.toString();
  }

  @Override
  public String key() {
    return Keys.table(warehouse, to);
  }
}
