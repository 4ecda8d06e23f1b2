package dev.floe.processor.step;

import dev.floe.events.command.CommandHeader;
import java.util.Objects;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;

/** Install a registered table: its metadata file already exists and is not rewritten. */
public record RegisterTableStep(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    TableMetadata metadata,
    String metadataLocation,
    boolean overwrite)
    implements Step {
  public RegisterTableStep {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(metadataLocation, "metadataLocation");
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.registerTable(this);
  }
}
