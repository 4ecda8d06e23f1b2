package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The commit of a create transaction (a staged create, then a commit with {@code assert-create}):
 * the table is built from the updates alone. It changes membership, so it is decided on the
 * warehouse key.
 *
 * @param warehouseRoot the warehouse's storage root, which the table's location must lie in
 */
public record CreateTableTransactionCommand(
    CommandHeader header,
    String warehouse,
    String warehouseRoot,
    TableIdentifier identifier,
    List<UpdateRequirement> requirements,
    List<MetadataUpdate> updates)
    implements CatalogCommand {
  public CreateTableTransactionCommand {
    CatalogCommand.requireHeader(header, warehouse);
    Objects.requireNonNull(warehouseRoot, "warehouseRoot");
    Objects.requireNonNull(identifier, "identifier");
    requirements = requirements == null ? List.of() : List.copyOf(requirements);
    updates = updates == null ? List.of() : List.copyOf(updates);
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
