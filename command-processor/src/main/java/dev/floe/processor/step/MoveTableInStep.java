package dev.floe.processor.step;

import dev.floe.events.command.CommandHeader;
import dev.floe.events.state.TableState;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/** The rename's last step, on the destination key: install the moved state, emit, reply. */
public record MoveTableInStep(
    CommandHeader header,
    String warehouse,
    TableIdentifier source,
    TableIdentifier destination,
    TableState state)
    implements TableStep {
  public MoveTableInStep {
    Objects.requireNonNull(state, "state");
  }

  @Override
  public TableIdentifier identifier() {
    return destination;
  }
}
