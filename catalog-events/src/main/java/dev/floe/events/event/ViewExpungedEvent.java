package dev.floe.events.event;

import dev.floe.events.state.DeletedEntity;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A dropped view was expunged: its recovery period ended, or it was expunged on request.
 *
 * @param dropCommandId the command of the drop that started its recovery period
 */
public record ViewExpungedEvent(
    String warehouse,
    TableIdentifier identifier,
    String viewUuid,
    String metadataLocation,
    String dropCommandId,
    String commandId,
    String principal,
    long sequence)
    implements ExpungeEvent {

  @Override
  public String uuid() {
    return viewUuid;
  }

  @Override
  public String kind() {
    return DeletedEntity.VIEW;
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.viewExpunged(this);
  }
}
