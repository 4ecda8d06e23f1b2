package dev.floe.events.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.Keys;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Register an existing view metadata file; the API read it, the command carries it (Iceberg's
 * JSON).
 *
 * @param managedNamespaces where the caller holds {@code manage}, as for {@link
 *     RegisterTableCommand}
 */
public record RegisterViewCommand(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    String metadataLocation,
    JsonNode metadata,
    List<List<String>> managedNamespaces)
    implements CatalogCommand {
  public RegisterViewCommand {
    CatalogCommand.requireTarget(header, warehouse, identifier);
    Objects.requireNonNull(metadataLocation, "metadataLocation");
    Objects.requireNonNull(metadata, "metadata");
    managedNamespaces = managedNamespaces == null ? List.of() : List.copyOf(managedNamespaces);
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
