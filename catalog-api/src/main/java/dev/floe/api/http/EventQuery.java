package dev.floe.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import dev.floe.projections.events.CatalogObjectEvent;
import dev.floe.projections.events.EventFilter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * What one request of the events endpoint asks for, read from its JSON body ({@code POST …/events})
 * or its query parameters ({@code GET …/events/stream}) and checked: bad input is a 400.
 *
 * @param token the continuation token, or null
 * @param pageSize at most this many events
 * @param since without a token: the first events accepted at or after this time, or null
 */
record EventQuery(String token, int pageSize, Long since, EventFilter filter) {
  /** The page size when none is asked for, and the largest served. */
  static final int DEFAULT_PAGE_SIZE = 100;

  static final int MAX_PAGE_SIZE = 1000;

  /** The most events a stream reads at once. */
  static final int STREAM_PAGE_SIZE = 500;

  /** The most values one filter may hold: a filter is looked up for every event a page reads. */
  static final int MAX_FILTER_VALUES = 100;

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

  /** A page's request: its JSON body (every field optional; an empty body is {@code {}}). */
  static EventQuery fromBody(RequestContext request) {
    JsonNode body = request.hasBody() ? request.json() : FloeJson.mapper().createObjectNode();
    body.fieldNames()
        .forEachRemaining(
            field -> {
              if (!FIELDS.contains(field)) {
                throw ApiException.badRequest("Unknown field: %s", field);
              }
            });
    return new EventQuery(
        text(body, "continuation-token"),
        pageSize(body),
        since(body.hasNonNull("since-timestamp-ms") ? longValue(body, "since-timestamp-ms") : null),
        filter(body));
  }

  /**
   * A stream's request: the filters as query parameters with the body's names (each may be repeated
   * or comma-separated; a name's levels are separated by {@code %1F}), the token from {@code
   * Last-Event-ID} or {@code continuation-token}.
   */
  static EventQuery fromStream(RequestContext request) {
    String token = request.header("Last-Event-ID");
    if (token == null || token.isEmpty()) {
      token = request.query("continuation-token");
    }
    String since = request.query("since-timestamp-ms");
    Long sinceMs = null;
    if (since != null) {
      try {
        sinceMs = since(Long.parseLong(since));
      } catch (NumberFormatException e) {
        throw ApiException.badRequest("Invalid since-timestamp-ms: expected an integer");
      }
    }
    return new EventQuery(token, STREAM_PAGE_SIZE, sinceMs, filter(request));
  }

  private static EventFilter filter(RequestContext request) {
    ObjectNode body = FloeJson.mapper().createObjectNode();
    for (String field : List.of("operation-types", "catalog-objects-by-uuid", "object-types")) {
      ArrayNode values = body.putArray(field);
      for (String value : request.queryAll(field)) {
        for (String part : value.split(",")) {
          values.add(part);
        }
      }
    }
    ArrayNode names = body.putArray("catalog-objects-by-name");
    for (String value : request.queryAll("catalog-objects-by-name")) {
      ArrayNode levels = names.addArray();
      for (String level : value.split("\u001f", -1)) {
        levels.add(level);
      }
    }
    String principal = request.query(PRINCIPAL_FILTER);
    if (principal != null) {
      body.putObject("custom-filters").put(PRINCIPAL_FILTER, principal);
    }
    return filter(body);
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
    Set<List<String>> names = new HashSet<>();
    JsonNode byName = body.get("catalog-objects-by-name");
    if (byName != null && !byName.isNull()) {
      if (!byName.isArray()) {
        throw ApiException.badRequest("Invalid catalog-objects-by-name: expected an array");
      }
      requireFew("catalog-objects-by-name", byName.size());
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

  private static void requireFew(String field, int values) {
    if (values > MAX_FILTER_VALUES) {
      throw ApiException.badRequest(
          "Invalid %s: at most %d values, not %d", field, MAX_FILTER_VALUES, values);
    }
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

  /** A start time: milliseconds since the epoch, not before it. */
  private static Long since(Long ms) {
    if (ms != null && ms < 0) {
      throw ApiException.badRequest(
          "Invalid since-timestamp-ms: %d (milliseconds since the epoch, at least 0)", ms);
    }
    return ms;
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
    requireFew(field, node.size());
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
