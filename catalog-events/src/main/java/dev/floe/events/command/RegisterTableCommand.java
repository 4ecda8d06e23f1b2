package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Register an existing metadata file as a table. The API reads the file (I/O belongs at the edge);
 * the command carries what it read, so deciding it is deterministic.
 *
 * @param managedNamespaces where the caller holds {@code manage} (each namespace with those below
 *     it; an empty namespace for all of them): a dropped table kept for its recovery period whose
 *     metadata this is may be taken over only there
 */
public record RegisterTableCommand(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    String metadataLocation,
    TableMetadata metadata,
    boolean overwrite,
    List<List<String>> managedNamespaces)
    implements CatalogCommand {
  public RegisterTableCommand {
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
