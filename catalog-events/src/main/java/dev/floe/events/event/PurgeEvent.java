package dev.floe.events.event;

import dev.floe.events.Keys;

/**
 * The purger's outcome for a dropped table's location, keyed by the warehouse, whose directory
 * reserves the location until then.
 */
public sealed interface PurgeEvent extends CatalogEvent
    permits TableFilesPurgedEvent, TablePurgeRefusedEvent {

  /** The dropped table's location. */
  String location();

  @Override
  default String subject() {
    return location();
  }

  @Override
  default String key() {
    return Keys.warehouse(warehouse());
  }
}
