package dev.floe.events.event;

import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;

/** A table came into being; {@code metadata} is its whole first metadata document. */
public record TableCreatedEvent(
    String warehouse,
    TableIdentifier identifier,
    String tableUuid,
    String metadataLocation,
    TableMetadata metadata,
    String commandId,
    String principal,
    long sequence)
    implements EntityEvent {
  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.tableCreated(this);
  }
}
