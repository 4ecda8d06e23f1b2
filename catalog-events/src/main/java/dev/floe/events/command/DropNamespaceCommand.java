package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.Objects;
import org.apache.iceberg.catalog.Namespace;

public record DropNamespaceCommand(CommandHeader header, String warehouse, Namespace namespace)
    implements CatalogCommand {
  public DropNamespaceCommand {
    CatalogCommand.requireHeader(header, warehouse);
    Objects.requireNonNull(namespace, "namespace");
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
