package dev.floe.processor.step;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.state.TableState;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A restore's second step, on the key of the name it is restored under: the directory has claimed
 * that name and the entity's locations again; install its kept state and acknowledge.
 *
 * @param source the name it had when it was dropped
 * @param destination the name it answers under from now on
 * @param dropCommandId the drop that started its recovery period: names what the directory kept
 */
public record RestoreStep(
    @JsonProperty(value = "type", access = JsonProperty.Access.WRITE_ONLY)
        @JsonDeserialize(using = StepTypes.KindDeserializer.class)
        EntityKind kind,
    CommandHeader header,
    String warehouse,
    TableIdentifier source,
    TableIdentifier destination,
    TableState state,
    String dropCommandId)
    implements KindedStep {
  public RestoreStep {
    Objects.requireNonNull(state, "state");
  }

  @Override
  public TableIdentifier identifier() {
    return destination;
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.restore(this);
  }
}
