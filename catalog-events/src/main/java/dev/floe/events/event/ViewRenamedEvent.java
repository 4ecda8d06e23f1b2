package dev.floe.events.event;

import dev.floe.events.Keys;
import org.apache.iceberg.catalog.TableIdentifier;

/** A view now answers under {@code to} only. Keyed by the new name. */
public record ViewRenamedEvent(
    String warehouse,
    TableIdentifier from,
    TableIdentifier to,
    String viewUuid,
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
