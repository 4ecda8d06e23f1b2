package dev.floe.processor.step;

import dev.floe.events.command.CommandHeader;
import org.apache.iceberg.catalog.TableIdentifier;

/** The rename's second step, on the source key: take the table's state out. */
public record MoveTableOutStep(
    CommandHeader header, String warehouse, TableIdentifier source, TableIdentifier destination)
    implements TableStep {

  @Override
  public TableIdentifier identifier() {
    return source;
  }
}
