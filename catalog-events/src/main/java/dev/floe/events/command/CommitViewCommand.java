package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.List;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;

/** Replace a view: Iceberg's requirements and updates, decided on the view's key. */
public record CommitViewCommand(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    List<UpdateRequirement> requirements,
    List<MetadataUpdate> updates)
    implements CatalogCommand {
  public CommitViewCommand {
    CatalogCommand.requireTarget(header, warehouse, identifier);
    requirements = requirements == null ? List.of() : List.copyOf(requirements);
    updates = updates == null ? List.of() : List.copyOf(updates);
  }

  @Override
  public String key() {
    return Keys.table(warehouse, identifier);
  }
}
