package dev.floe.events.event;

import dev.floe.events.state.NamespaceState;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;

/**
 * A dropped namespace left its recovery period for good (it expired, or was expunged on request):
 * its name is free, and it can no longer be restored. What was kept inside it is expunged with it,
 * each by an event of its own recorded just before this one.
 *
 * @param dropCommandId the command of the drop that started its recovery period
 * @param purgedAreas the namespace's storage areas whose files the purger deletes (all but what a
 *     live entity holds or what was written after this event); empty with {@code retain-data}, and
 *     in events recorded before areas were purged
 */
public record NamespaceExpungedEvent(
    String warehouse,
    Namespace namespace,
    String dropCommandId,
    String commandId,
    String principal,
    long sequence,
    List<String> purgedAreas)
    implements NamespaceEvent {
  public NamespaceExpungedEvent {
    purgedAreas = purgedAreas == null ? List.of() : List.copyOf(purgedAreas);
  }

  @Override
  public Optional<NamespaceState> stateAfter(Optional<NamespaceState> before) {
    return before; // its drop already removed it
  }

  @Override
  public <R> R accept(EventVisitor<R> visitor) {
    return visitor.namespaceExpunged(this);
  }
}
