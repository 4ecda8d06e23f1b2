package dev.floe.events.event;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.iceberg.catalog.TableIdentifier;

/** An existing view metadata file became a view. */
public record ViewRegisteredEvent(
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
    return visitor.viewRegistered(this);
  }
}
