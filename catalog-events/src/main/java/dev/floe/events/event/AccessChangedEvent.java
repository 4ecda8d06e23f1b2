package dev.floe.events.event;

import dev.floe.events.Keys;
import dev.floe.events.access.AccessChange;

/**
 * A change to who may do what ({@code floe.access.changed}). The access-control state is one
 * entity: {@code sequence} counts its changes. Carries no token and no token hash.
 */
public record AccessChangedEvent(
    String warehouse, AccessChange change, String commandId, String principal, long sequence)
    implements CatalogEvent {

  @Override
  public String subject() {
    return change.describe();
  }

  @Override
  public String key() {
    return Keys.ACCESS;
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.accessChanged(this);
  }
}
