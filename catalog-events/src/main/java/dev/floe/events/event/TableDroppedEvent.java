package dev.floe.events.event;

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
    implements EntityEvent {
  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.tableDropped(this);
  }
}
