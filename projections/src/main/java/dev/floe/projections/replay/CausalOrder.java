package dev.floe.projections.replay;

import dev.floe.events.event.AccessChangedEvent;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventVisitor;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespaceExpungedEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.events.event.NamespaceRestoredEvent;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.TableFilesPurgedEvent;
import dev.floe.events.event.TableMaintainedEvent;
import dev.floe.events.event.TablePurgeRefusedEvent;
import dev.floe.events.event.TableRegisteredEvent;
import dev.floe.events.event.TableRenamedEvent;
import dev.floe.events.event.TableRestoredEvent;
import dev.floe.events.event.ViewCreatedEvent;
import dev.floe.events.event.ViewDroppedEvent;
import dev.floe.events.event.ViewExpungedEvent;
import dev.floe.events.event.ViewRegisteredEvent;
import dev.floe.events.event.ViewRenamedEvent;
import dev.floe.events.event.ViewReplacedEvent;
import dev.floe.events.event.ViewRestoredEvent;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;

/**
 * Applies events partition by partition, each partition in its log order, and an event only once
 * what it builds on is in place. Within one key the log order is the decision order; a rename is
 * the one change that crosses keys (it is recorded on the new name's partition, while the table's
 * earlier events sit on the old name's), so it waits until the old key holds the table at the
 * sequence before it, and later events on either key wait for it.
 *
 * <p>Events may be offered in pieces, as they are read: whatever is ready is applied at once, and
 * an event that waits for another partition's event that has not been read yet stays queued until
 * it has. Not thread-safe: one thread offers and applies.
 */
final class CausalOrder {
  private final ReplayState state;
  private final Map<Integer, Deque<CatalogEvent>> queues = new TreeMap<>();

  CausalOrder(ReplayState state) {
    this.state = state;
  }

  /** Queues one event behind the earlier events of its partition; {@link #applyReady} applies. */
  void offer(int partition, CatalogEvent event) {
    queues.computeIfAbsent(partition, p -> new ArrayDeque<>()).addLast(event);
  }

  /** Applies every queued event that is ready, until none is. */
  void applyReady() {
    boolean progress = true;
    while (progress) {
      progress = false;
      for (Deque<CatalogEvent> queue : queues.values()) {
        while (!queue.isEmpty() && ready(queue.peekFirst(), state)) {
          state.apply(queue.pollFirst());
          progress = true;
        }
      }
    }
  }

  /**
   * Once the whole log was offered and applied.
   *
   * @throws IllegalStateException when an event is still queued: its cause is not in the log
   */
  void requireAllApplied() {
    for (Deque<CatalogEvent> queue : queues.values()) {
      if (!queue.isEmpty()) {
        CatalogEvent stuck = queue.peekFirst();
        throw new IllegalStateException(
            "The log cannot be replayed: "
                + stuck.type()
                + " of "
                + stuck.subject()
                + " (sequence "
                + stuck.sequence()
                + ") has no cause");
      }
    }
  }

  private static boolean ready(CatalogEvent event, ReplayState state) {
    return event.accept(new Ready(state));
  }

  /**
   * Whether an event can be applied now: what it changes holds the sequence before it (a rename's
   * and a restore's target name is free). A namespace's events and the other changes need nothing.
   */
  private record Ready(ReplayState state) implements EventVisitor<Boolean> {
    @Override
    public Boolean namespaceCreated(NamespaceCreatedEvent e) {
      return true;
    }

    @Override
    public Boolean namespacePropertiesUpdated(NamespacePropertiesUpdatedEvent e) {
      return true;
    }

    @Override
    public Boolean namespaceDropped(NamespaceDroppedEvent e) {
      return true;
    }

    @Override
    public Boolean namespaceRestored(NamespaceRestoredEvent e) {
      return true;
    }

    @Override
    public Boolean namespaceExpunged(NamespaceExpungedEvent e) {
      return true;
    }

    @Override
    public Boolean tableCreated(TableCreatedEvent e) {
      return state.tableEntry(e.warehouse(), e.identifier()) == null;
    }

    @Override
    public Boolean tableRegistered(TableRegisteredEvent e) {
      ReplayedTable current = state.tableEntry(e.warehouse(), e.identifier());
      return e.overwrote()
          ? current != null && current.sequence() == e.sequence() - 1
          : current == null;
    }

    @Override
    public Boolean tableCommitted(TableCommittedEvent e) {
      return holds(state.tableEntry(e.warehouse(), e.identifier()), e.tableUuid(), e.sequence());
    }

    @Override
    public Boolean tableDropped(TableDroppedEvent e) {
      return holds(state.tableEntry(e.warehouse(), e.identifier()), e.tableUuid(), e.sequence());
    }

    @Override
    public Boolean tableRenamed(TableRenamedEvent e) {
      return holds(state.tableEntry(e.warehouse(), e.from()), e.tableUuid(), e.sequence())
          && state.tableEntry(e.warehouse(), e.to()) == null;
    }

    @Override
    public Boolean tableRestored(TableRestoredEvent e) {
      ReplayedTable kept = state.droppedTable(e.warehouse(), e.tableUuid(), e.metadataLocation());
      return kept != null
          && kept.sequence() == e.sequence() - 1
          && state.tableEntry(e.warehouse(), e.to()) == null;
    }

    @Override
    public Boolean tableExpunged(TableExpungedEvent e) {
      return e.tableUuid() == null
          || state.droppedTable(e.warehouse(), e.tableUuid(), e.metadataLocation()) != null;
    }

    @Override
    public Boolean tableFilesPurged(TableFilesPurgedEvent e) {
      return true;
    }

    @Override
    public Boolean tablePurgeRefused(TablePurgeRefusedEvent e) {
      return true;
    }

    @Override
    public Boolean tableMaintained(TableMaintainedEvent e) {
      return true;
    }

    @Override
    public Boolean viewCreated(ViewCreatedEvent e) {
      return state.viewEntry(e.warehouse(), e.identifier()) == null;
    }

    @Override
    public Boolean viewRegistered(ViewRegisteredEvent e) {
      return state.viewEntry(e.warehouse(), e.identifier()) == null;
    }

    @Override
    public Boolean viewReplaced(ViewReplacedEvent e) {
      return holds(state.viewEntry(e.warehouse(), e.identifier()), e.viewUuid(), e.sequence());
    }

    @Override
    public Boolean viewDropped(ViewDroppedEvent e) {
      return holds(state.viewEntry(e.warehouse(), e.identifier()), e.viewUuid(), e.sequence());
    }

    @Override
    public Boolean viewRenamed(ViewRenamedEvent e) {
      return holds(state.viewEntry(e.warehouse(), e.from()), e.viewUuid(), e.sequence())
          && state.viewEntry(e.warehouse(), e.to()) == null;
    }

    @Override
    public Boolean viewRestored(ViewRestoredEvent e) {
      ReplayedTable kept = state.droppedView(e.warehouse(), e.viewUuid(), e.metadataLocation());
      return kept != null
          && kept.sequence() == e.sequence() - 1
          && state.viewEntry(e.warehouse(), e.to()) == null;
    }

    @Override
    public Boolean viewExpunged(ViewExpungedEvent e) {
      return e.viewUuid() == null
          || state.droppedView(e.warehouse(), e.viewUuid(), e.metadataLocation()) != null;
    }

    @Override
    public Boolean accessChanged(AccessChangedEvent e) {
      return true;
    }
  }

  private static boolean holds(ReplayedTable entry, String uuid, long sequence) {
    return entry != null && entry.uuid().equals(uuid) && entry.sequence() == sequence - 1;
  }
}
