package dev.floe.events.event;

import java.util.List;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;

/** A commit applied: the requirements that held and the updates applied, in Iceberg's JSON. */
public record TableCommittedEvent(
    String warehouse,
    TableIdentifier identifier,
    String tableUuid,
    List<UpdateRequirement> requirements,
    List<MetadataUpdate> updates,
    String previousMetadataLocation,
    String metadataLocation,
    String commandId,
    String principal,
    long sequence)
    implements EntityEvent {
  public TableCommittedEvent {
    requirements = requirements == null ? List.of() : List.copyOf(requirements);
    updates = updates == null ? List.of() : List.copyOf(updates);
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.tableCommitted(this);
  }
}
