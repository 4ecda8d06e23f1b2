package dev.floe.events.event;

import java.util.Map;

/** The CloudEvents {@code type} of each event record. Adding one is compatible; renaming is not. */
public final class EventTypes {
  private static final Map<String, Class<? extends CatalogEvent>> BY_TYPE =
      Map.of(
          "floe.namespace.created", NamespaceCreatedEvent.class,
          "floe.namespace.properties-updated", NamespacePropertiesUpdatedEvent.class,
          "floe.namespace.dropped", NamespaceDroppedEvent.class,
          "floe.table.created", TableCreatedEvent.class,
          "floe.table.committed", TableCommittedEvent.class,
          "floe.table.dropped", TableDroppedEvent.class,
          "floe.table.renamed", TableRenamedEvent.class,
          "floe.table.registered", TableRegisteredEvent.class);

  private EventTypes() {}

  public static String typeOf(Class<?> eventClass) {
    return BY_TYPE.entrySet().stream()
        .filter(e -> e.getValue().equals(eventClass))
        .map(Map.Entry::getKey)
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("Not an event: " + eventClass));
  }

  public static Class<? extends CatalogEvent> classOf(String type) {
    Class<? extends CatalogEvent> eventClass = BY_TYPE.get(type);
    if (eventClass == null) {
      throw new IllegalArgumentException("Unknown event type: " + type);
    }
    return eventClass;
  }
}
