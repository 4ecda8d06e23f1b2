package dev.floe.events.event;

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
    implements EntityEvent {
  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.viewDropped(this);
  }
}
