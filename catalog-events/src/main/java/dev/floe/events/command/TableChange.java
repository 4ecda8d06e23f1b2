package dev.floe.events.command;

import java.util.List;
import java.util.Objects;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;

/** One table's part of a multi-table transaction: Iceberg's requirements and updates. */
public record TableChange(
    TableIdentifier identifier,
    List<UpdateRequirement> requirements,
    List<MetadataUpdate> updates) {
  public TableChange {
    Objects.requireNonNull(identifier, "identifier");
    requirements = requirements == null ? List.of() : List.copyOf(requirements);
    updates = updates == null ? List.of() : List.copyOf(updates);
  }
}
