package dev.floe.events.event;

/**
 * A fact on {@code floe.events}: something the catalog did. Carried as the {@code data} of a
 * CloudEvents envelope ({@link EventEnvelope}); its {@link #type()} is the envelope's type.
 */
public sealed interface CatalogEvent
    permits NamespaceEvent,
        EntityEvent,
        PurgeEvent,
        ExpungeEvent,
        TableMaintainedEvent,
        AccessChangedEvent {

  String warehouse();

  /** The command that caused this event. */
  String commandId();

  /** Who asked for the change. */
  String principal();

  /** Position of this event in its entity's history, from 1, without gaps. */
  long sequence();

  /** The CloudEvents type, e.g. {@code floe.table.committed}. */
  default String type() {
    return EventTypes.typeOf(getClass());
  }

  /** The entity the event is about, readable: {@code db.sales} or {@code db.sales/orders}. */
  String subject();

  /** The Kafka key (same as the key of the commands that change that entity). */
  String key();

  /** What {@code visitor} gives for this event: its method for this event's type. */
  <R> R accept(EventVisitor<R> visitor);
}
