package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.catalog.Namespace;

public record UpdateNamespacePropertiesCommand(
    CommandHeader header,
    String warehouse,
    Namespace namespace,
    Map<String, String> updates,
    List<String> removals)
    implements CatalogCommand {
  public UpdateNamespacePropertiesCommand {
    CatalogCommand.requireHeader(header, warehouse);
    Objects.requireNonNull(namespace, "namespace");
    updates = updates == null ? Map.of() : Map.copyOf(updates);
    removals = removals == null ? List.of() : List.copyOf(removals);
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
