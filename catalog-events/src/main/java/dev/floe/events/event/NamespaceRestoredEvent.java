package dev.floe.events.event;

import dev.floe.events.state.NamespaceState;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;

/**
 * A dropped namespace, kept for its warehouse's recovery period, was restored in place: by a
 * restore request, or by creating it again while nothing dropped was kept inside it. Its grants and
 * visibility, which stay on its name, apply again.
 *
 * @param properties its properties from now on: those it had when dropped, with those of a create
 *     that restored it set over them
 * @param dropCommandId the command of the drop that started its recovery period
 */
public record NamespaceRestoredEvent(
    String warehouse,
    Namespace namespace,
    Map<String, String> properties,
    String dropCommandId,
    String commandId,
    String principal,
    long sequence)
    implements NamespaceEvent {
  public NamespaceRestoredEvent {
    properties = properties == null ? Map.of() : Map.copyOf(properties);
  }

  @Override
  public Optional<NamespaceState> stateAfter(Optional<NamespaceState> before) {
    // The event carries the properties it has from now on: nothing of the drop is needed.
    return Optional.of(new NamespaceState(properties, sequence));
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.namespaceRestored(this);
  }
}
