package dev.floe.events.event;

import dev.floe.events.state.NamespaceState;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;

public record NamespaceCreatedEvent(
    String warehouse,
    Namespace namespace,
    Map<String, String> properties,
    String commandId,
    String principal,
    long sequence)
    implements NamespaceEvent {
  public NamespaceCreatedEvent {
    properties = properties == null ? Map.of() : Map.copyOf(properties);
  }

  @Override
  public Optional<NamespaceState> stateAfter(Optional<NamespaceState> before) {
    return Optional.of(new NamespaceState(properties, sequence));
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.namespaceCreated(this);
  }
}
