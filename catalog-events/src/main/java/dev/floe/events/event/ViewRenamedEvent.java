package dev.floe.events.event;

import org.apache.iceberg.catalog.TableIdentifier;

/** A view now answers under {@code to} only. Keyed by the new name. */
public record ViewRenamedEvent(
    String warehouse,
    TableIdentifier from,
    TableIdentifier to,
    String viewUuid,
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
    return visitor.viewRenamed(this);
  }
}
