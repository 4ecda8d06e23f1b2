package dev.floe.processor.step;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.floe.events.command.CommandHeader;
import org.apache.iceberg.catalog.TableIdentifier;

/** A rename's second step, on the source key: take the table's or view's state out. */
public record MoveOutStep(
    @JsonProperty(value = "type", access = JsonProperty.Access.WRITE_ONLY)
        @JsonDeserialize(using = StepTypes.KindDeserializer.class)
        EntityKind kind,
    CommandHeader header,
    String warehouse,
    TableIdentifier source,
    TableIdentifier destination)
    implements KindedStep {

  @Override
  public TableIdentifier identifier() {
    return source;
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.moveOut(this);
  }
}
