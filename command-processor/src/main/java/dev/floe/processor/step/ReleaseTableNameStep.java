package dev.floe.processor.step;

import dev.floe.events.Keys;
import dev.floe.events.Rejection;
import dev.floe.events.command.CommandHeader;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Compensation for a create whose table step failed (the warehouse storage refused the metadata
 * file): back on the warehouse key, the directory releases the name this command claimed, and only
 * then is the client told of the failure, so a retry finds the name free.
 */
public record ReleaseTableNameStep(
    CommandHeader header, String warehouse, TableIdentifier identifier, Rejection rejection)
    implements TableStep {
  public ReleaseTableNameStep {
    Objects.requireNonNull(rejection, "rejection");
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
