package dev.floe.api.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.api.auth.Caller;
import dev.floe.events.access.AccessEntries;
import dev.floe.events.access.AccessEntries.Action;
import dev.floe.events.event.EventEnvelope;
import dev.floe.projections.access.AccessSnapshot;
import dev.floe.projections.events.CatalogObjectEvent;
import dev.floe.projections.events.EventLogPages;
import dev.floe.projections.events.EventLogPages.Item;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * One page's view of the log for its caller, with the access the caller has now: which events it
 * may see ({@link #visible}, what {@code request-event-count} counts), which the page holds ({@link
 * #kept}: visible and matching the filters), and each as the endpoint serves it. Each event is
 * described once, however often it is asked about.
 */
final class ServedEvents {
  /** Which table's or view's uuid holds a name now. */
  @FunctionalInterface
  interface Holders {
    Optional<String> uuidNow(TableIdentifier name, boolean view);
  }

  private final EventRequest request;
  private final AccessSnapshot access;
  private final Holders holders;
  private final Map<Item, Optional<CatalogObjectEvent>> described = new IdentityHashMap<>();
  private final Map<List<Object>, Optional<String>> held = new HashMap<>();

  ServedEvents(EventRequest request, AccessSnapshot access, Holders holders) {
    this.request = request;
    this.access = access;
    this.holders = holders;
  }

  /** The caller may see the event, whatever the filters. */
  boolean visible(Item item) {
    return describe(item).filter(e -> inWarehouse(e) && mayRead(e)).isPresent();
  }

  /** The page holds the event: visible, at or after {@code since}, and matching the filters. */
  boolean kept(Item item) {
    return visible(item)
        && (request.since() == null || item.timestampMs() >= request.since())
        && request.filter().matches(describe(item).orElseThrow());
  }

  /** A held event as the endpoint serves it. */
  ObjectNode json(Item item, EventLogPages.Page page) {
    EventEnvelope envelope = item.envelope();
    return CatalogObjectEvent.json(
        envelope,
        describe(item).orElseThrow(),
        page.requestCounts().getOrDefault(envelope.data().commandId(), 1));
  }

  private Optional<CatalogObjectEvent> describe(Item item) {
    return described.computeIfAbsent(
        item,
        i -> {
          try {
            return Optional.of(CatalogObjectEvent.of(i.envelope().data()));
          } catch (IllegalArgumentException e) {
            return Optional.empty();
          }
        });
  }

  /**
   * Events of this warehouse; changes to principals and tokens (of no warehouse) for superusers.
   */
  private boolean inWarehouse(CatalogObjectEvent event) {
    if (event.warehouse().equals(request.warehouse())) {
      return true;
    }
    Caller caller = request.caller();
    return AccessEntries.ALL_WAREHOUSES.equals(event.warehouse())
        && (caller.unrestricted() || access.isSuperuser(caller.name()));
  }

  /**
   * Whether the caller may read the object now: a namespace it may read; a table or view it may
   * read under every name the event shows (both of a rename), where a grant on a table's or view's
   * name counts only for the entity holding that name now (its uuid), never for another one that
   * held the name before (renamed away or dropped); or, for a change to no one object (files
   * purged, access), the warehouse's admin role.
   */
  private boolean mayRead(CatalogObjectEvent event) {
    String warehouse = request.warehouse();
    String principal = request.caller().name();
    if (request.caller().unrestricted() || access.isSuperuser(principal)) {
      return true;
    }
    if (event.objectType() == null) {
      return access.roleAction(principal, warehouse).orElse(null) == Action.MANAGE;
    }
    boolean namespace = CatalogObjectEvent.NAMESPACE.equals(event.objectType());
    for (List<String> name : event.names()) {
      List<String> levels = namespace ? name : name.subList(0, name.size() - 1);
      if (access.level(principal, warehouse, levels, null) != null) {
        continue;
      }
      if (namespace
          || access.level(principal, warehouse, levels, name.get(name.size() - 1)) == null
          || !heldBy(event, name)) {
        return false;
      }
    }
    return true;
  }

  /** Whether the event's table or view holds this name now. */
  private boolean heldBy(CatalogObjectEvent event, List<String> name) {
    if (event.uuid() == null) {
      return false;
    }
    boolean view = CatalogObjectEvent.VIEW.equals(event.objectType());
    Optional<String> holder =
        held.computeIfAbsent(
            List.of(view, name),
            key -> holders.uuidNow(TableIdentifier.of(name.toArray(String[]::new)), view));
    return holder.filter(event.uuid()::equals).isPresent();
  }
}
