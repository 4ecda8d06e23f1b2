package dev.floe.processor.step;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.floe.events.Keys;
import dev.floe.events.Rejection;
import dev.floe.events.command.CommandHeader;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Compensation for a create or rename that failed on the entity's key (the warehouse storage
 * refused the metadata file, or the state was gone): back on the warehouse key, the directory
 * releases the name this command claimed, and only then is the client told of the failure, so a
 * retry finds the name free.
 */
public record ReleaseNameStep(
    @JsonProperty(value = "type", access = JsonProperty.Access.WRITE_ONLY)
        @JsonDeserialize(using = StepTypes.KindDeserializer.class)
        EntityKind kind,
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    Rejection rejection)
    implements KindedStep {
  public ReleaseNameStep {
    Objects.requireNonNull(rejection, "rejection");
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.releaseName(this);
  }
}
