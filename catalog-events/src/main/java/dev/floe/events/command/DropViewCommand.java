package dev.floe.events.command;

import dev.floe.events.Keys;
import org.apache.iceberg.catalog.TableIdentifier;

public record DropViewCommand(CommandHeader header, String warehouse, TableIdentifier identifier)
    implements CatalogCommand {
  public DropViewCommand {
    CatalogCommand.requireTarget(header, warehouse, identifier);
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
