package dev.floe.events.event;

import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A dropped view, kept for its warehouse's recovery period, was restored as it was under {@code
 * to}. Keyed by {@code to}.
 */
public record ViewRestoredEvent(
    String warehouse,
    TableIdentifier from,
    TableIdentifier to,
    String viewUuid,
    String metadataLocation,
    String commandId,
    String principal,
    long sequence)
    implements EntityEvent {

  /** The name it answers under from now on. */
  @Override
  public TableIdentifier identifier() {
    return to;
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.viewRestored(this);
  }
}
