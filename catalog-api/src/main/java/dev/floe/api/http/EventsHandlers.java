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
import dev.floe.projections.events.EventTail;
import dev.floe.projections.events.EventToken;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpServerResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.iceberg.rest.Endpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

  /** The most events a stream reads at once. */
  static final int STREAM_PAGE_SIZE = 500;

  /** How often an idle stream writes a comment, which keeps proxies and idle timeouts away. */
  static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

  static final Endpoint V1_EVENTS_STREAM = Endpoint.create("GET", "/v1/{prefix}/events/stream");

  private static final Logger LOG = LoggerFactory.getLogger(EventsHandlers.class);

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
  private final EventTail tail;
  private final AtomicInteger waiting = new AtomicInteger();
  private WorkerExecutor executor;

  /** The most requests that may wait for the log's readers at once. */
  static final int MAX_WAITING = 64;

  EventsHandlers(CatalogContext catalog, EventLogPages pages, EventTail tail) {
    this.catalog = catalog;
    this.pages = pages;
    this.tail = tail;
  }

  /** What one request asks for, from a JSON body or from query parameters. */
  private record Query(String token, int pageSize, Long since, EventFilter filter) {}

  /** A request checked, authorised, and its token read: where to read from, and for whom. */
  private record Prepared(
      String warehouse,
      Caller caller,
      byte[] key,
      String digest,
      List<Long> from,
      Long since,
      EventFilter filter) {

    /** The token that resumes at these positions. */
    String token(List<Long> positions) {
      return new EventToken(warehouse, digest, positions).encode(key);
    }

    /** The same request, read from elsewhere. */
    Prepared at(List<Long> positions, Long sinceMs) {
      return new Prepared(warehouse, caller, key, digest, positions, sinceMs, filter);
    }
  }

  Future<HttpResult> handleEvents(RequestContext request) {
    JsonNode body = request.hasBody() ? request.json() : FloeJson.mapper().createObjectNode();
    body.fieldNames()
        .forEachRemaining(
            field -> {
              if (!FIELDS.contains(field)) {
                throw ApiException.badRequest("Unknown field: %s", field);
              }
            });
    Query query =
        new Query(
            text(body, "continuation-token"),
            pageSize(body),
            since(
                body.hasNonNull("since-timestamp-ms")
                    ? longValue(body, "since-timestamp-ms")
                    : null),
            filter(body));
    Prepared prepared = prepare(request, query);
    Map<Item, CatalogObjectEvent> served = new IdentityHashMap<>();
    AccessSnapshot access = catalog.access();
    Predicate<Item> keep = keep(prepared, access, served);
    Predicate<Item> counted = visible(prepared, access);
    return onReaders(
            () ->
                pages.read(
                    prepared.from(), prepared.since(), query.pageSize(), SCAN_LIMIT, keep, counted))
        .recover(EventsHandlers::gone)
        .map(
            page -> {
              ObjectNode answer = FloeJson.mapper().createObjectNode();
              answer.put("continuation-token", prepared.token(page.next()));
              ArrayNode events = answer.putArray("events");
              for (Item item : page.items()) {
                events.add(json(item, served.get(item), page));
              }
              return new HttpResult(200, FloeJson.toBytes(answer), Map.of());
            });
  }

  /**
   * {@code GET /v1/{prefix}/events/stream}: the same events as Server-Sent Events, live. The
   * filters are query parameters (each may be repeated; a name's levels are separated by {@code
   * %1F}); {@code Last-Event-ID} (or {@code continuation-token}) resumes after an event, {@code
   * since-timestamp-ms} starts at a time, and without either the stream starts at the log's end.
   * Every event's {@code id} is a continuation token. Streams share the instance's readers.
   */
  Future<HttpResult> handleStream(RequestContext request) {
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
    Query query = new Query(token, STREAM_PAGE_SIZE, sinceMs, filter(request));
    Prepared prepared = prepare(request, query);
    Future<List<Long>> start =
        prepared.from() != null || prepared.since() != null
            ? Future.succeededFuture(prepared.from())
            : onReaders(pages::end);
    Promise<HttpResult> done = Promise.promise();
    start
        .onSuccess(from -> new Stream(request, prepared, from, done).begin())
        .onFailure(done::fail);
    return done.future().recover(EventsHandlers::gone);
  }

  /** The events a page may hold now, with the access the caller has now. */
  private static Predicate<Item> keep(
      Prepared prepared, AccessSnapshot access, Map<Item, CatalogObjectEvent> served) {
    return item -> {
      CatalogObjectEvent event;
      try {
        event = CatalogObjectEvent.of(item.envelope().data());
      } catch (IllegalArgumentException e) {
        return false;
      }
      boolean kept =
          inWarehouse(event, prepared.warehouse(), prepared.caller(), access)
              && (prepared.since() == null || item.timestampMs() >= prepared.since())
              && prepared.filter().matches(event)
              && mayRead(event, prepared.warehouse(), prepared.caller(), access);
      if (kept) {
        served.put(item, event);
      }
      return kept;
    };
  }

  /**
   * The events the caller may see, whatever the filters: what {@code request-event-count} counts,
   * so the count never tells of a change to something the caller may not read.
   */
  private static Predicate<Item> visible(Prepared prepared, AccessSnapshot access) {
    return item -> {
      CatalogObjectEvent event;
      try {
        event = CatalogObjectEvent.of(item.envelope().data());
      } catch (IllegalArgumentException e) {
        return false;
      }
      return inWarehouse(event, prepared.warehouse(), prepared.caller(), access)
          && mayRead(event, prepared.warehouse(), prepared.caller(), access);
    };
  }

  /**
   * Runs a read of the log on the endpoint's own threads, one per reader, so requests waiting for a
   * reader never hold the threads every other read of the catalog runs on; beyond {@link
   * #MAX_WAITING} waiting requests, 503 at once.
   */
  private <T> Future<T> onReaders(Callable<T> read) {
    if (waiting.incrementAndGet() > MAX_WAITING) {
      waiting.decrementAndGet();
      return Future.failedFuture(
          ApiException.serviceUnavailable(
              "Too many requests are waiting for the event log's readers: retry later"));
    }
    return executor().<T>executeBlocking(read, false).onComplete(done -> waiting.decrementAndGet());
  }

  private synchronized WorkerExecutor executor() {
    if (executor == null) {
      executor = catalog.vertx().createSharedWorkerExecutor("floe-events", pages.readers());
    }
    return executor;
  }

  private static ObjectNode json(Item item, CatalogObjectEvent event, EventLogPages.Page page) {
    EventEnvelope envelope = item.envelope();
    return CatalogObjectEvent.json(
        envelope, event, page.requestCounts().getOrDefault(envelope.data().commandId(), 1));
  }

  private static <T> Future<T> gone(Throwable failure) {
    if (failure instanceof EventLogPages.ExpiredPositionException expired) {
      return Future.failedFuture(new ApiException(ErrorType.GONE, expired.getMessage()));
    }
    if (failure instanceof EventLogPages.BusyException busy) {
      return Future.failedFuture(ApiException.serviceUnavailable(busy.getMessage()));
    }
    return Future.failedFuture(failure);
  }

  private Prepared prepare(RequestContext request, Query query) {
    String warehouse = catalog.warehouse(request);
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
    String digest = query.filter().digest();
    if (query.token() == null) {
      return new Prepared(warehouse, caller, key, digest, null, query.since(), query.filter());
    }
    EventToken decoded;
    try {
      decoded = EventToken.decode(query.token(), key);
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
    return new Prepared(warehouse, caller, key, digest, decoded.positions(), null, query.filter());
  }

  /** One open event stream: reads what is new when the log has news, writes it, until closed. */
  private final class Stream {
    private final RequestContext request;
    private final Prepared prepared;
    private final Promise<HttpResult> done;
    private final HttpServerResponse response;
    private List<Long> from;
    private Long since;
    private boolean reading;
    private boolean news;
    private boolean closed;
    private Runnable unlisten = () -> {};
    private long keepAlive = -1;

    Stream(RequestContext request, Prepared prepared, List<Long> from, Promise<HttpResult> done) {
      this.request = request;
      this.prepared = prepared;
      this.from = from;
      this.since = from == null ? prepared.since() : null;
      this.done = done;
      this.response = request.response();
    }

    void begin() {
      response.setStatusCode(200);
      response.setChunked(true);
      response.putHeader("Content-Type", "text/event-stream");
      response.putHeader("Cache-Control", "no-cache");
      response.closeHandler(v -> close());
      response.exceptionHandler(e -> close());
      // The retry hint is how long a browser waits before it reconnects with Last-Event-ID.
      response.write("retry: 1000\n: events of warehouse " + prepared.warehouse() + "\n\n");
      Vertx vertx = catalog.vertx();
      Context context = vertx.getOrCreateContext();
      unlisten = tail.listen(() -> context.runOnContext(v -> read()));
      keepAlive =
          vertx.setPeriodic(
              KEEP_ALIVE.toMillis(),
              id -> {
                if (!closed) {
                  response.write(": keep-alive\n\n");
                  // A missed notification costs at most one keep-alive period.
                  read();
                }
              });
      read();
    }

    private void read() {
      if (closed) {
        return;
      }
      if (reading || response.writeQueueFull()) {
        news = true;
        if (response.writeQueueFull()) {
          response.drainHandler(v -> read());
        }
        return;
      }
      reading = true;
      news = false;
      Map<Item, CatalogObjectEvent> served = new IdentityHashMap<>();
      Prepared now = prepared.at(from, since);
      AccessSnapshot access = catalog.access();
      Predicate<Item> keep = keep(now, access, served);
      Predicate<Item> counted = visible(now, access);
      onReaders(
              () ->
                  pages.read(now.from(), now.since(), STREAM_PAGE_SIZE, SCAN_LIMIT, keep, counted))
          .onComplete(
              result -> {
                reading = false;
                if (closed) {
                  return;
                }
                if (result.failed()) {
                  fail(result.cause());
                  return;
                }
                EventLogPages.Page page = result.result();
                StringBuilder out = new StringBuilder();
                for (int i = 0; i < page.items().size(); i++) {
                  Item item = page.items().get(i);
                  out.append("id: ").append(prepared.token(page.after(i))).append('\n');
                  out.append("data: ").append(json(item, served.get(item), page)).append("\n\n");
                }
                if (out.length() > 0) {
                  response.write(out.toString());
                }
                from = page.next();
                since = null;
                if (!page.items().isEmpty() || news) {
                  read();
                }
              });
    }

    private void fail(Throwable cause) {
      if (cause instanceof EventLogPages.ExpiredPositionException expired) {
        ObjectNode error = FloeJson.mapper().createObjectNode();
        error.put("message", expired.getMessage()).put("type", "GoneException").put("code", 410);
        response.write("event: error\ndata: " + error + "\n\n");
        close();
        return;
      }
      LOG.warn(
          "An event stream ({}) could not read the log: {}", request.requestId(), cause.toString());
      catalog.vertx().setTimer(1000, id -> read());
    }

    private void close() {
      if (closed) {
        return;
      }
      closed = true;
      unlisten.run();
      if (keepAlive >= 0) {
        catalog.vertx().cancelTimer(keepAlive);
      }
      if (!response.ended() && !response.closed()) {
        response.end();
      }
      done.tryComplete(HttpResult.STREAMED);
    }
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

  /** The filters as query parameters of the stream: the names of the body's fields. */
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

  /** The most values one filter may hold: a filter is looked up for every event a page reads. */
  static final int MAX_FILTER_VALUES = 100;

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
