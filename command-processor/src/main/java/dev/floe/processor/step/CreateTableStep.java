package dev.floe.processor.step;

import dev.floe.events.command.CommandHeader;
import java.util.Objects;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;

/** Install a new table's first metadata, already built and validated by the directory. */
public record CreateTableStep(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    TableMetadata metadata,
    String metadataLocation)
    implements Step {
  public CreateTableStep {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(metadataLocation, "metadataLocation");
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.createTable(this);
  }
}
