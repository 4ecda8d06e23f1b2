package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/** Rename a table, within or across namespaces; decided on the warehouse key, then moved. */
public record RenameTableCommand(
    CommandHeader header, String warehouse, TableIdentifier source, TableIdentifier destination)
    implements CatalogCommand {
  public RenameTableCommand {
    CatalogCommand.requireHeader(header, warehouse);
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(destination, "destination");
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
