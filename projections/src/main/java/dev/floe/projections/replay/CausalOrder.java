package dev.floe.projections.replay;

import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.event.TableRegisteredEvent;
import dev.floe.events.event.TableRenamedEvent;
import dev.floe.events.event.ViewCreatedEvent;
import dev.floe.events.event.ViewDroppedEvent;
import dev.floe.events.event.ViewRegisteredEvent;
import dev.floe.events.event.ViewRenamedEvent;
import dev.floe.events.event.ViewReplacedEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;

/**
 * Applies events partition by partition, each partition in its log order, and an event only once
 * what it builds on is in place. Within one key the log order is the decision order; a rename is
 * the one change that crosses keys (it is recorded on the new name's partition, while the table's
 * earlier events sit on the old name's), so it waits until the old key holds the table at the
 * sequence before it, and later events on either key wait for it.
 */
final class CausalOrder {
  private CausalOrder() {}

  /**
   * @throws IllegalStateException when the log cannot be ordered (an event's cause is missing)
   */
  static void apply(Collection<List<CatalogEvent>> partitions, ReplayState state) {
    List<Deque<CatalogEvent>> queues = new ArrayList<>();
    partitions.forEach(events -> queues.add(new ArrayDeque<>(events)));
    boolean progress = true;
    while (progress) {
      progress = false;
      for (Deque<CatalogEvent> queue : queues) {
        while (!queue.isEmpty() && ready(queue.peekFirst(), state)) {
          state.apply(queue.pollFirst());
          progress = true;
        }
      }
    }
    for (Deque<CatalogEvent> queue : queues) {
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
    if (event instanceof TableCreatedEvent e) {
      return state.tableEntry(e.warehouse(), e.identifier()) == null;
    }
    if (event instanceof TableRegisteredEvent e) {
      ReplayState.ReplayedTable current = state.tableEntry(e.warehouse(), e.identifier());
      return e.overwrote()
          ? current != null && current.sequence() == e.sequence() - 1
          : current == null;
    }
    if (event instanceof TableCommittedEvent e) {
      return holds(state.tableEntry(e.warehouse(), e.identifier()), e.tableUuid(), e.sequence());
    }
    if (event instanceof TableDroppedEvent e) {
      return holds(state.tableEntry(e.warehouse(), e.identifier()), e.tableUuid(), e.sequence());
    }
    if (event instanceof TableRenamedEvent e) {
      return holds(state.tableEntry(e.warehouse(), e.from()), e.tableUuid(), e.sequence())
          && state.tableEntry(e.warehouse(), e.to()) == null;
    }
    if (event instanceof ViewCreatedEvent e) {
      return state.viewEntry(e.warehouse(), e.identifier()) == null;
    }
    if (event instanceof ViewRegisteredEvent e) {
      return state.viewEntry(e.warehouse(), e.identifier()) == null;
    }
    if (event instanceof ViewReplacedEvent e) {
      return holds(state.viewEntry(e.warehouse(), e.identifier()), e.viewUuid(), e.sequence());
    }
    if (event instanceof ViewDroppedEvent e) {
      return holds(state.viewEntry(e.warehouse(), e.identifier()), e.viewUuid(), e.sequence());
    }
    if (event instanceof ViewRenamedEvent e) {
      return holds(state.viewEntry(e.warehouse(), e.from()), e.viewUuid(), e.sequence())
          && state.viewEntry(e.warehouse(), e.to()) == null;
    }
    return true;
  }

  private static boolean holds(ReplayState.ReplayedTable entry, String uuid, long sequence) {
    return entry != null && entry.uuid().equals(uuid) && entry.sequence() == sequence - 1;
  }
}
