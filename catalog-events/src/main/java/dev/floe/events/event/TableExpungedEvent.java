package dev.floe.events.event;

import dev.floe.events.state.DeletedEntity;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A dropped table was expunged: its recovery period ended, or it was expunged on request.
 *
 * @param purge whether its files are to be deleted now (it was dropped with {@code purgeRequested}
 *     and the expunge did not ask to retain its data): its locations wait for the purger, which
 *     records {@code floe.table.files-purged} for each
 * @param dropCommandId the command of the drop that started its recovery period (the id of its
 *     {@code floe.table.dropped} event is {@code <dropCommandId>:0})
 */
public record TableExpungedEvent(
    String warehouse,
    TableIdentifier identifier,
    String tableUuid,
    String metadataLocation,
    boolean purge,
    String dropCommandId,
    String commandId,
    String principal,
    long sequence)
    implements ExpungeEvent {

  @Override
  public String uuid() {
    return tableUuid;
  }

  @Override
  public String kind() {
    return DeletedEntity.TABLE;
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.tableExpunged(this);
  }
}
