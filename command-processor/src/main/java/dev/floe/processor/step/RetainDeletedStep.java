package dev.floe.processor.step;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.floe.events.Keys;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.state.TableState;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A recoverable drop's last step, back on the warehouse key: the dropped entity's last state
 * (pointer only) joins what the directory keeps of it for its recovery period, so it can be
 * restored as it was. The drop is acknowledged here.
 */
public record RetainDeletedStep(
    @JsonProperty(value = "type", access = JsonProperty.Access.WRITE_ONLY)
        @JsonDeserialize(using = StepTypes.KindDeserializer.class)
        EntityKind kind,
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    TableState state)
    implements KindedStep {
  public RetainDeletedStep {
    Objects.requireNonNull(state, "state");
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.retainDeleted(this);
  }
}
