package dev.floe.events.event;

import java.util.List;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;

/** A view commit applied (replace, properties, location), in Iceberg's JSON. */
public record ViewReplacedEvent(
    String warehouse,
    TableIdentifier identifier,
    String viewUuid,
    List<UpdateRequirement> requirements,
    List<MetadataUpdate> updates,
    String previousMetadataLocation,
    String metadataLocation,
    String commandId,
    String principal,
    long sequence)
    implements EntityEvent {
  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.viewReplaced(this);
  }
}
