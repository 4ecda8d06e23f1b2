package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

public record DropViewCommand(CommandHeader header, String warehouse, TableIdentifier identifier)
    implements CatalogCommand {
  public DropViewCommand {
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(warehouse, "warehouse");
    Objects.requireNonNull(identifier, "identifier");
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
