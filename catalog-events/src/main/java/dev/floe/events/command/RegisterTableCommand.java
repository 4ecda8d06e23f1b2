package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.Objects;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Register an existing metadata file as a table. The API reads the file (I/O belongs at the edge);
 * the command carries what it read, so deciding it is deterministic.
 */
public record RegisterTableCommand(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    String metadataLocation,
    TableMetadata metadata,
    boolean overwrite)
    implements CatalogCommand {
  public RegisterTableCommand {
    CatalogCommand.requireTarget(header, warehouse, identifier);
    Objects.requireNonNull(metadataLocation, "metadataLocation");
    Objects.requireNonNull(metadata, "metadata");
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
