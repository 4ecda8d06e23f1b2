package dev.floe.events.event;

/**
 * The files under a dropped table's location were removed (drop with {@code purgeRequested}), or an
 * expired namespace's area was emptied of what it held ({@link NamespaceExpungedEvent}).
 */
public record TableFilesPurgedEvent(
    String warehouse, String location, String commandId, String principal, long sequence)
    implements PurgeEvent {
  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.tableFilesPurged(this);
  }
}
