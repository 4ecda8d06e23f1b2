package dev.floe.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.api.auth.Caller;
import dev.floe.events.FloeJson;
import dev.floe.events.access.AccessEntries;
import dev.floe.events.access.AccessEntries.Action;
import dev.floe.events.event.EventEnvelope;
import dev.floe.projections.access.AccessSnapshot;
import dev.floe.projections.events.CatalogObjectEvent;
import dev.floe.projections.events.EventFilter;
import dev.floe.projections.events.EventLogPages;
import dev.floe.projections.events.EventLogPages.Item;
import dev.floe.projections.events.EventToken;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.iceberg.rest.Endpoint;

/**
 * {@code POST /v1/{prefix}/events}: the committed changes of a warehouse, paged with an opaque
 * continuation token, in the shapes of Iceberg's proposed Events API (apache/iceberg#12584). A
 * caller sees only the changes of objects it may read now, and access changes only as the
 * warehouse's admin (docs/events.md, "The events endpoint").
 */
final class EventsHandlers {
  static final Endpoint V1_EVENTS = Endpoint.create("POST", "/v1/{prefix}/events");

  /** The page size when none is asked for, and the largest served. */
  static final int DEFAULT_PAGE_SIZE = 100;

  static final int MAX_PAGE_SIZE = 1000;

  /** The most events one request looks at, kept or not: a sparse filter answers in bounded time. */
  static final int SCAN_LIMIT = 20_000;

  private static final Set<String> FIELDS =
      Set.of(
          "continuation-token",
          "page-size",
          "since-timestamp-ms",
          "operation-types",
          "catalog-objects-by-name",
          "catalog-objects-by-uuid",
          "object-types",
          "custom-filters");
  private static final Set<String> OBJECT_TYPES =
      Set.of(CatalogObjectEvent.NAMESPACE, CatalogObjectEvent.TABLE, CatalogObjectEvent.VIEW);
  private static final String PRINCIPAL_FILTER = "principal";

  private final CatalogContext catalog;
  private final EventLogPages pages;

  EventsHandlers(CatalogContext catalog, EventLogPages pages) {
    this.catalog = catalog;
    this.pages = pages;
  }

  Future<HttpResult> handleEvents(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    JsonNode body = request.hasBody() ? request.json() : FloeJson.mapper().createObjectNode();
    body.fieldNames()
        .forEachRemaining(
            field -> {
              if (!FIELDS.contains(field)) {
                throw ApiException.badRequest("Unknown field: %s", field);
              }
            });
    EventFilter filter = filter(body);
    int pageSize = pageSize(body);
    Long since =
        body.hasNonNull("since-timestamp-ms") ? longValue(body, "since-timestamp-ms") : null;
    Caller caller = request.caller();
    AccessSnapshot access = catalog.access();
    if (!caller.unrestricted()
        && !access.isSuperuser(caller.name())
        && !access.seesAnything(caller.name(), warehouse)) {
      throw ApiException.forbidden(caller.name(), "read the events of warehouse " + warehouse);
    }
    byte[] key =
        access
            .instanceSecret()
            .orElseThrow(
                () -> ApiException.serviceUnavailable("The instances' secret is not there yet"))
            .getBytes(StandardCharsets.UTF_8);
    String digest = filter.digest();
    List<Long> from = null;
    String token = text(body, "continuation-token");
    if (token != null) {
      EventToken decoded;
      try {
        decoded = EventToken.decode(token, key);
      } catch (EventToken.InvalidTokenException e) {
        throw ApiException.badRequest("Invalid continuation-token: %s", e.getMessage());
      }
      if (!decoded.warehouse().equals(warehouse)) {
        throw ApiException.badRequest(
            "Invalid continuation-token: it was issued for another warehouse");
      }
      if (!decoded.filters().equals(digest)) {
        throw ApiException.badRequest(
            "Invalid continuation-token: it was issued for other filters; send the same filters"
                + " with every page");
      }
      from = decoded.positions();
      since = null;
    }
    Map<Item, CatalogObjectEvent> served = new IdentityHashMap<>();
    Long sinceMs = since;
    Predicate<Item> keep =
        item -> {
          CatalogObjectEvent event;
          try {
            event = CatalogObjectEvent.of(item.envelope().data());
          } catch (IllegalArgumentException e) {
            return false;
          }
          boolean kept =
              inWarehouse(event, warehouse, caller, access)
                  && (sinceMs == null || item.timestampMs() >= sinceMs)
                  && filter.matches(event)
                  && mayRead(event, warehouse, caller, access);
          if (kept) {
            served.put(item, event);
          }
          return kept;
        };
    List<Long> start = from;
    return catalog
        .read(() -> pages.read(start, sinceMs, pageSize, SCAN_LIMIT, keep))
        .recover(
            failure ->
                Future.failedFuture(
                    failure instanceof EventLogPages.ExpiredPositionException expired
                        ? new ApiException(ErrorType.GONE, expired.getMessage())
                        : failure))
        .map(
            page -> {
              ObjectNode answer = FloeJson.mapper().createObjectNode();
              answer.put(
                  "continuation-token", new EventToken(warehouse, digest, page.next()).encode(key));
              ArrayNode events = answer.putArray("events");
              for (Item item : page.items()) {
                EventEnvelope envelope = item.envelope();
                events.add(
                    CatalogObjectEvent.json(
                        envelope,
                        served.get(item),
                        page.requestCounts().getOrDefault(envelope.data().commandId(), 1)));
              }
              return new HttpResult(200, FloeJson.toBytes(answer), Map.of());
            });
  }

  /**
   * Events of this warehouse; changes to principals and tokens (of no warehouse) for superusers.
   */
  private static boolean inWarehouse(
      CatalogObjectEvent event, String warehouse, Caller caller, AccessSnapshot access) {
    if (event.warehouse().equals(warehouse)) {
      return true;
    }
    return AccessEntries.ALL_WAREHOUSES.equals(event.warehouse())
        && (caller.unrestricted() || access.isSuperuser(caller.name()));
  }

  /**
   * Whether the caller may read the object now: a namespace it may read, a table or view it may
   * read under every name the event shows (both of a rename), or, for a change to no one object
   * (files purged, access), the warehouse's admin role.
   */
  private static boolean mayRead(
      CatalogObjectEvent event, String warehouse, Caller caller, AccessSnapshot access) {
    String principal = caller.name();
    if (caller.unrestricted() || access.isSuperuser(principal)) {
      return true;
    }
    if (event.objectType() == null) {
      return access.roleAction(principal, warehouse).orElse(null) == Action.MANAGE;
    }
    for (List<String> name : event.names()) {
      boolean namespace = CatalogObjectEvent.NAMESPACE.equals(event.objectType());
      List<String> levels = namespace ? name : name.subList(0, name.size() - 1);
      String table = namespace ? null : name.get(name.size() - 1);
      if (access.level(principal, warehouse, levels, table) == null) {
        return false;
      }
    }
    return true;
  }

  private static EventFilter filter(JsonNode body) {
    Set<String> operationTypes = strings(body, "operation-types");
    Set<String> objectTypes = strings(body, "object-types");
    for (String type : objectTypes) {
      if (!OBJECT_TYPES.contains(type)) {
        throw ApiException.badRequest(
            "Invalid object-types: %s (expected namespace, table or view)", type);
      }
    }
    Set<String> uuids = new HashSet<>();
    for (String uuid : strings(body, "catalog-objects-by-uuid")) {
      try {
        uuids.add(UUID.fromString(uuid).toString());
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest("Invalid catalog-objects-by-uuid: %s is not a uuid", uuid);
      }
    }
    List<List<String>> names = new ArrayList<>();
    JsonNode byName = body.get("catalog-objects-by-name");
    if (byName != null && !byName.isNull()) {
      if (!byName.isArray()) {
        throw ApiException.badRequest("Invalid catalog-objects-by-name: expected an array");
      }
      for (JsonNode name : byName) {
        if (!name.isArray() || name.isEmpty()) {
          throw ApiException.badRequest(
              "Invalid catalog-objects-by-name: each must be a non-empty array of name levels");
        }
        List<String> levels = new ArrayList<>();
        for (JsonNode level : name) {
          if (!level.isTextual() || level.asText().isEmpty()) {
            throw ApiException.badRequest(
                "Invalid catalog-objects-by-name: every level must be a non-empty string");
          }
          levels.add(level.asText());
        }
        names.add(levels);
      }
    }
    Set<String> principals = new HashSet<>();
    JsonNode custom = body.get("custom-filters");
    if (custom != null && !custom.isNull()) {
      if (!custom.isObject()) {
        throw ApiException.badRequest("Invalid custom-filters: expected an object");
      }
      custom
          .fields()
          .forEachRemaining(
              entry -> {
                if (!entry.getKey().equals(PRINCIPAL_FILTER)) {
                  throw ApiException.badRequest(
                      "Unknown custom filter: %s (Floe's is principal)", entry.getKey());
                }
                if (!entry.getValue().isTextual()) {
                  throw ApiException.badRequest("Invalid custom filter principal: a string");
                }
                principals.add(entry.getValue().asText());
              });
    }
    return new EventFilter(operationTypes, names, uuids, objectTypes, principals);
  }

  private static int pageSize(JsonNode body) {
    if (!body.hasNonNull("page-size")) {
      return DEFAULT_PAGE_SIZE;
    }
    long requested = longValue(body, "page-size");
    if (requested < 1) {
      throw ApiException.badRequest("Invalid page-size: %d (must be at least 1)", requested);
    }
    return (int) Math.min(requested, MAX_PAGE_SIZE);
  }

  private static long longValue(JsonNode body, String field) {
    JsonNode node = body.get(field);
    if (!node.isIntegralNumber() || !node.canConvertToLong()) {
      throw ApiException.badRequest("Invalid %s: expected an integer", field);
    }
    return node.asLong();
  }

  private static Set<String> strings(JsonNode body, String field) {
    JsonNode node = body.get(field);
    Set<String> values = new HashSet<>();
    if (node == null || node.isNull()) {
      return values;
    }
    if (!node.isArray()) {
      throw ApiException.badRequest("Invalid %s: expected an array of strings", field);
    }
    for (JsonNode value : node) {
      if (!value.isTextual() || value.asText().isEmpty()) {
        throw ApiException.badRequest("Invalid %s: expected an array of strings", field);
      }
      values.add(value.asText());
    }
    return values;
  }

  private static String text(JsonNode body, String field) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isTextual()) {
      throw ApiException.badRequest("Invalid %s: expected a string", field);
    }
    return node.asText();
  }
}
