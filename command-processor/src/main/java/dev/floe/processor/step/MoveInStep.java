package dev.floe.processor.step;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.state.TableState;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/** A rename's third step, on the destination key: install the moved state, emit, move grants. */
public record MoveInStep(
    @JsonProperty(value = "type", access = JsonProperty.Access.WRITE_ONLY)
        @JsonDeserialize(using = StepTypes.KindDeserializer.class)
        EntityKind kind,
    CommandHeader header,
    String warehouse,
    TableIdentifier source,
    TableIdentifier destination,
    TableState state)
    implements KindedStep {
  public MoveInStep {
    Objects.requireNonNull(state, "state");
  }

  @Override
  public TableIdentifier identifier() {
    return destination;
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.moveIn(this);
  }
}
