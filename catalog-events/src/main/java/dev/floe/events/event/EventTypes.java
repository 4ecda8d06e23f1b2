package dev.floe.events.event;

import java.util.Map;
import java.util.Set;

/** The CloudEvents {@code type} of each event record. Adding one is compatible; renaming is not. */
public final class EventTypes {
  private static final Map<String, Class<? extends CatalogEvent>> BY_TYPE =
      Map.ofEntries(
          Map.entry("floe.namespace.created", NamespaceCreatedEvent.class),
          Map.entry("floe.namespace.properties-updated", NamespacePropertiesUpdatedEvent.class),
          Map.entry("floe.namespace.dropped", NamespaceDroppedEvent.class),
          Map.entry("floe.namespace.restored", NamespaceRestoredEvent.class),
          Map.entry("floe.namespace.expunged", NamespaceExpungedEvent.class),
          Map.entry("floe.table.created", TableCreatedEvent.class),
          Map.entry("floe.table.committed", TableCommittedEvent.class),
          Map.entry("floe.table.dropped", TableDroppedEvent.class),
          Map.entry("floe.table.renamed", TableRenamedEvent.class),
          Map.entry("floe.table.registered", TableRegisteredEvent.class),
          Map.entry("floe.table.files-purged", TableFilesPurgedEvent.class),
          Map.entry("floe.table.purge-refused", TablePurgeRefusedEvent.class),
          Map.entry("floe.table.maintained", TableMaintainedEvent.class),
          Map.entry("floe.table.restored", TableRestoredEvent.class),
          Map.entry("floe.table.expunged", TableExpungedEvent.class),
          Map.entry("floe.view.created", ViewCreatedEvent.class),
          Map.entry("floe.view.replaced", ViewReplacedEvent.class),
          Map.entry("floe.view.dropped", ViewDroppedEvent.class),
          Map.entry("floe.view.renamed", ViewRenamedEvent.class),
          Map.entry("floe.view.registered", ViewRegisteredEvent.class),
          Map.entry("floe.view.restored", ViewRestoredEvent.class),
          Map.entry("floe.view.expunged", ViewExpungedEvent.class),
          Map.entry("floe.access.changed", AccessChangedEvent.class));

  private EventTypes() {}

  /** Every event type ({@code floe.table.committed}, …). */
  public static Set<String> types() {
    return BY_TYPE.keySet();
  }

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
