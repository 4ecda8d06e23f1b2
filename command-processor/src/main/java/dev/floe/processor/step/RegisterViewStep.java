package dev.floe.processor.step;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.command.CommandHeader;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/** Install a registered view; its metadata file exists already and is not rewritten. */
public record RegisterViewStep(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    JsonNode metadata,
    String metadataLocation)
    implements Step {
  public RegisterViewStep {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(metadataLocation, "metadataLocation");
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.registerView(this);
  }
}
