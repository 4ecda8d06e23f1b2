package dev.floe.processor.step;

import dev.floe.events.Keys;
import dev.floe.events.access.AccessChange;
import dev.floe.events.command.CommandHeader;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A rename's last step, on the access key: the grants on the old name follow the table (or view) to
 * its new name, and the rename is acknowledged here, so a grantee can use the new name as soon as
 * the client hears of it.
 */
public record MoveGrantsStep(
    CommandHeader header, String warehouse, TableIdentifier source, TableIdentifier destination)
    implements Step {

  @Override
  public TableIdentifier identifier() {
    return destination;
  }

  @Override
  public String key() {
    return Keys.ACCESS;
  }

  /** The change to the access-control state: the grants on {@code source} move to the new name. */
  public AccessChange change() {
    return new AccessChange.MoveTableGrants(
        warehouse,
        List.of(source.namespace().levels()),
        source.name(),
        List.of(destination.namespace().levels()),
        destination.name());
  }
}
