package dev.floe.events.event;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;

/**
 * @param updated the keys set, with their new values
 * @param removed the keys that existed and were removed
 */
public record NamespacePropertiesUpdatedEvent(
    String warehouse,
    Namespace namespace,
    Map<String, String> updated,
    List<String> removed,
    String commandId,
    String principal,
    long sequence)
    implements NamespaceEvent {
  public NamespacePropertiesUpdatedEvent {
    updated = updated == null ? Map.of() : Map.copyOf(updated);
    removed = removed == null ? List.of() : List.copyOf(removed);
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.namespacePropertiesUpdated(this);
  }
}
