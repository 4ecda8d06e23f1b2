package dev.floe.processor.step;

import dev.floe.events.command.CommandHeader;
import org.apache.iceberg.catalog.TableIdentifier;

/** A view rename's second step, on the source key: take the view's state out. */
public record MoveViewOutStep(
    CommandHeader header, String warehouse, TableIdentifier source, TableIdentifier destination)
    implements TableStep {

  @Override
  public TableIdentifier identifier() {
    return source;
  }
}
