package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.catalog.Namespace;

public record CreateNamespaceCommand(
    CommandHeader header, String warehouse, Namespace namespace, Map<String, String> properties)
    implements CatalogCommand {
  public CreateNamespaceCommand {
    CatalogCommand.requireHeader(header, warehouse);
    Objects.requireNonNull(namespace, "namespace");
    if (namespace.isEmpty()) {
      throw new IllegalArgumentException("Cannot create the empty namespace");
    }
    properties = properties == null ? Map.of() : Map.copyOf(properties);
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
