package dev.floe.events.event;

import dev.floe.events.state.NamespaceState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
  public Optional<NamespaceState> stateAfter(Optional<NamespaceState> before) {
    Map<String, String> properties = new HashMap<>(before.orElseThrow().properties());
    removed.forEach(properties::remove);
    properties.putAll(updated);
    return Optional.of(new NamespaceState(properties, sequence));
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.namespacePropertiesUpdated(this);
  }
}
