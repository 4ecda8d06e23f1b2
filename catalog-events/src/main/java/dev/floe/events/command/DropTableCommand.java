package dev.floe.events.command;

import dev.floe.events.Keys;
import org.apache.iceberg.catalog.TableIdentifier;

public record DropTableCommand(
    CommandHeader header, String warehouse, TableIdentifier identifier, boolean purgeRequested)
    implements CatalogCommand {
  public DropTableCommand {
    CatalogCommand.requireTarget(header, warehouse, identifier);
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }

  public String tableKey() {
    return Keys.table(warehouse, identifier);
  }
}
