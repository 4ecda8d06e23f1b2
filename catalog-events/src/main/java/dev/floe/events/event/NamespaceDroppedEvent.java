package dev.floe.events.event;

import dev.floe.events.state.NamespaceState;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;

/**
 * A namespace was dropped.
 *
 * @param expiresAtMs when the warehouse has a recovery period: until when the dropped namespace is
 *     kept, its name held and restorable ({@code floe.namespace.restored}) before it is expunged
 *     ({@code floe.namespace.expunged}); 0 when the drop was final at once
 */
public record NamespaceDroppedEvent(
    String warehouse,
    Namespace namespace,
    String commandId,
    String principal,
    long sequence,
    long expiresAtMs)
    implements NamespaceEvent {

  /** A drop that is final at once. */
  public NamespaceDroppedEvent(
      String warehouse, Namespace namespace, String commandId, String principal, long sequence) {
    this(warehouse, namespace, commandId, principal, sequence, 0);
  }

  /** True when the namespace is kept, restorable, until {@link #expiresAtMs}. */
  public boolean kept() {
    return expiresAtMs > 0;
  }

  @Override
  public Optional<NamespaceState> stateAfter(Optional<NamespaceState> before) {
    return Optional.empty();
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.namespaceDropped(this);
  }
}
