package dev.floe.events.event;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.iceberg.catalog.TableIdentifier;

/** A view came into being; {@code metadata} is its first view metadata document. */
public record ViewCreatedEvent(
    String warehouse,
    TableIdentifier identifier,
    String viewUuid,
    String metadataLocation,
    JsonNode metadata,
    String commandId,
    String principal,
    long sequence)
    implements EntityEvent {
  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.viewCreated(this);
  }
}
