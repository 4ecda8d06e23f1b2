package dev.floe.processor.step;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.command.CommandHeader;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/** Install a new view's first metadata (Iceberg's view metadata JSON), built by the directory. */
public record CreateViewStep(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    JsonNode metadata,
    String metadataLocation)
    implements Step {
  public CreateViewStep {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(metadataLocation, "metadataLocation");
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.createView(this);
  }
}
