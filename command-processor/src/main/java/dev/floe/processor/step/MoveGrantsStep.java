package dev.floe.processor.step;

import dev.floe.events.CommandReply;
import dev.floe.events.Keys;
import dev.floe.events.access.AccessChange;
import dev.floe.events.command.CommandHeader;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The last step of a rename, or of a restore under another name, on the access key: the grants on
 * the old name follow the table (or view) to its new name, and the change is acknowledged here, so
 * a grantee can use the new name as soon as the client hears of it.
 *
 * @param keepSource true for a restore: the old name keeps its grants (a table may hold it again),
 *     the new name gets them too
 * @param reply the acknowledgement to send once the grants have followed; null for a rename's
 */
public record MoveGrantsStep(
    CommandHeader header,
    String warehouse,
    TableIdentifier source,
    TableIdentifier destination,
    boolean keepSource,
    CommandReply reply)
    implements Step {

  /** A rename's: the grants leave the old name. */
  public MoveGrantsStep(
      CommandHeader header, String warehouse, TableIdentifier source, TableIdentifier destination) {
    this(header, warehouse, source, destination, false, null);
  }

  @Override
  public TableIdentifier identifier() {
    return destination;
  }

  @Override
  public String key() {
    return Keys.ACCESS;
  }

  /** The change to the access-control state: the grants on {@code source} go to the new name. */
  public AccessChange change() {
    List<String> from = List.of(source.namespace().levels());
    List<String> to = List.of(destination.namespace().levels());
    return keepSource
        ? new AccessChange.CopyTableGrants(warehouse, from, source.name(), to, destination.name())
        : new AccessChange.MoveTableGrants(warehouse, from, source.name(), to, destination.name());
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.moveGrants(this);
  }
}
