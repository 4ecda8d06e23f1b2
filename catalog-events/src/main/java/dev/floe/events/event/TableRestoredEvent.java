package dev.floe.events.event;

import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A dropped table, kept for its warehouse's recovery period, was restored as it was (same uuid,
 * metadata file, locations and grants) under {@code to}: its name when dropped, or another one when
 * that name had been taken meanwhile. Keyed by {@code to}.
 */
public record TableRestoredEvent(
    String warehouse,
    TableIdentifier from,
    TableIdentifier to,
    String tableUuid,
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
    return visitor.tableRestored(this);
  }
}
