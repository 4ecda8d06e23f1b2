package dev.floe.events.event;

/**
 * The purger refused to delete a dropped table's location and deleted nothing: at deletion time the
 * location authority found it outside the warehouse's storage roots, or held in part by a live
 * table or view. The location is no longer reserved; its files are left where they are.
 */
public record TablePurgeRefusedEvent(
    String warehouse,
    String location,
    String reason,
    String commandId,
    String principal,
    long sequence)
    implements PurgeEvent {
  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.tablePurgeRefused(this);
  }
}
