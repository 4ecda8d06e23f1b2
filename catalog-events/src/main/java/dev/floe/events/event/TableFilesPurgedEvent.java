package dev.floe.events.event;

import dev.floe.events.Keys;

/** The files under a dropped table's location were removed (drop with {@code purgeRequested}). */
public record TableFilesPurgedEvent(
    String warehouse, String location, String commandId, String principal, long sequence)
    implements CatalogEvent {

  @Override
  public String subject() {
    return location;
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
