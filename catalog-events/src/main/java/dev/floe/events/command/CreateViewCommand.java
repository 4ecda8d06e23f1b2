package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.CreateViewRequest;

/** Create a view; its name is claimed on the warehouse key (tables and views share names). */
public record CreateViewCommand(
    CommandHeader header,
    String warehouse,
    String warehouseRoot,
    TableIdentifier identifier,
    CreateViewRequest request)
    implements CatalogCommand {
  public CreateViewCommand {
    CatalogCommand.requireHeader(header, warehouse);
    Objects.requireNonNull(warehouseRoot, "warehouseRoot");
    Objects.requireNonNull(identifier, "identifier");
    Objects.requireNonNull(request, "request");
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
