package dev.floe.processor.step;

import dev.floe.events.Keys;
import dev.floe.events.Rejection;
import dev.floe.events.command.CommandHeader;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Compensation for a view create or rename that failed on the view's key: free the claimed name,
 * then reply.
 */
public record ReleaseViewNameStep(
    CommandHeader header, String warehouse, TableIdentifier identifier, Rejection rejection)
    implements TableStep {
  public ReleaseViewNameStep {
    Objects.requireNonNull(rejection, "rejection");
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
