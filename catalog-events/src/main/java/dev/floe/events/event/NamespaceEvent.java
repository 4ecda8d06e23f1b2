package dev.floe.events.event;

import dev.floe.events.Keys;
import dev.floe.events.state.NamespaceState;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;

/** An event about one namespace, keyed by its warehouse, whose directory holds the namespace. */
public sealed interface NamespaceEvent extends CatalogEvent
    permits NamespaceCreatedEvent,
        NamespacePropertiesUpdatedEvent,
        NamespaceDroppedEvent,
        NamespaceRestoredEvent,
        NamespaceExpungedEvent {

  Namespace namespace();

  /**
   * The namespace's state after this event, from its state before ({@code empty} when it does not
   * exist): the one evolve of a namespace, which the processor's directory and replay both apply.
   * What a recovery period keeps of a dropped namespace is the directory's, not this state's.
   */
  Optional<NamespaceState> stateAfter(Optional<NamespaceState> before);

  @Override
  default String subject() {
    return namespace().toString();
  }

  @Override
  default String key() {
    return Keys.warehouse(warehouse());
  }
}
