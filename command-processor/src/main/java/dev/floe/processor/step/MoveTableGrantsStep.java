package dev.floe.processor.step;

import dev.floe.events.Keys;
import dev.floe.events.command.CommandHeader;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A rename's last step, on the access key: the grants on the old name follow the table (or view) to
 * its new name, and the rename is acknowledged here, so a grantee can use the new name as soon as
 * the client hears of it.
 */
public record MoveTableGrantsStep(
    CommandHeader header, String warehouse, TableIdentifier source, TableIdentifier destination)
    implements TableStep {

  @Override
  public TableIdentifier identifier() {
    return destination;
  }

  @Override
  public String key() {
    return Keys.ACCESS;
  }
}
