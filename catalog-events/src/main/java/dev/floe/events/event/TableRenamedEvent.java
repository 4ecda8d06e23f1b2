package dev.floe.events.event;

import org.apache.iceberg.catalog.TableIdentifier;

/** A table now answers under {@code to} only; its metadata is unchanged. Keyed by the new name. */
public record TableRenamedEvent(
    String warehouse,
    TableIdentifier from,
    TableIdentifier to,
    String tableUuid,
    String metadataLocation,
    String commandId,
    String principal,
    long sequence)
    implements EntityEvent {

  /** The new name. */
  @Override
  public TableIdentifier identifier() {
    return to;
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.tableRenamed(this);
  }
}
