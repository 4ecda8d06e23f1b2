package dev.floe.events.event;

import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * An existing metadata file became a table (or replaced one, when {@code overwrote}).
 *
 * @param metadata the registered document, as read from {@code metadataLocation}
 */
public record TableRegisteredEvent(
    String warehouse,
    TableIdentifier identifier,
    String tableUuid,
    String metadataLocation,
    TableMetadata metadata,
    boolean overwrote,
    String commandId,
    String principal,
    long sequence)
    implements EntityEvent {
  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.tableRegistered(this);
  }
}
