package dev.floe.processor.step;

import dev.floe.events.command.CommandHeader;
import dev.floe.events.state.TableState;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/** A view rename's last step, on the destination key: install, emit, reply. */
public record MoveViewInStep(
    CommandHeader header,
    String warehouse,
    TableIdentifier source,
    TableIdentifier destination,
    TableState state)
    implements TableStep {
  public MoveViewInStep {
    Objects.requireNonNull(state, "state");
  }

  @Override
  public TableIdentifier identifier() {
    return destination;
  }
}
