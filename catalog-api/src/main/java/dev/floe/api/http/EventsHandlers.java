package dev.floe.api.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.api.auth.Caller;
import dev.floe.events.FloeJson;
import dev.floe.projections.NotLocalException;
import dev.floe.projections.events.EventLogPages;
import dev.floe.projections.events.EventLogPages.Item;
import dev.floe.projections.events.EventTail;
import dev.floe.projections.events.EventToken;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.WorkerExecutor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.rest.Endpoint;

/**
 * {@code POST /v1/{prefix}/events}: the committed changes of a warehouse, paged with an opaque
 * continuation token, in the shapes of Iceberg's proposed Events API (apache/iceberg#12584). A
 * caller sees only the changes of objects it may read now, and access changes only as the
 * warehouse's admin (docs/events.md, "The events endpoint").
 */
final class EventsHandlers {
  static final Endpoint V1_EVENTS = Endpoint.create("POST", "/v1/{prefix}/events");

  /** The most events one request looks at, kept or not: a sparse filter answers in bounded time. */
  static final int SCAN_LIMIT = 20_000;

  static final Endpoint V1_EVENTS_STREAM = Endpoint.create("GET", "/v1/{prefix}/events/stream");

  private final CatalogContext catalog;
  private final EventLogPages pages;
  private final EventTail tail;
  private final AtomicInteger waiting = new AtomicInteger();
  private final StreamSlots slots;
  private WorkerExecutor executor;

  /** The most requests that may wait for the log's readers at once. */
  static final int MAX_WAITING = 64;

  EventsHandlers(CatalogContext catalog, EventLogPages pages, EventTail tail) {
    this.catalog = catalog;
    this.pages = pages;
    this.tail = tail;
    this.slots =
        new StreamSlots(
            catalog.config().http().maxStreams(), catalog.config().http().maxStreamsPerPrincipal());
  }

  Future<HttpResult> handleEvents(RequestContext request) {
    EventQuery query = EventQuery.fromBody(request);
    EventRequest prepared = prepare(request, query);
    ServedEvents served = served(request, prepared);
    return read(prepared, query.pageSize(), served)
        .map(
            page -> {
              ObjectNode answer = FloeJson.mapper().createObjectNode();
              answer.put("continuation-token", prepared.token(page.next()));
              ArrayNode events = answer.putArray("events");
              for (Item item : page.items()) {
                events.add(served.json(item, page));
              }
              return new HttpResult(200, FloeJson.toBytes(answer), Map.of());
            });
  }

  /**
   * {@code GET /v1/{prefix}/events/stream}: the same events as Server-Sent Events, live ({@link
   * EventQuery#fromStream} says how it is asked). Without a token or a start time the stream starts
   * at the log's end. Every event's {@code id} is a continuation token. Streams share the
   * instance's readers.
   */
  Future<HttpResult> handleStream(RequestContext request) {
    EventRequest prepared = prepare(request, EventQuery.fromStream(request));
    Runnable release;
    try {
      release = slots.acquire(request.principalName());
    } catch (ApiException full) {
      request.response().putHeader("Retry-After", "5");
      throw full;
    }
    Future<List<Long>> start =
        prepared.from() != null || prepared.since() != null
            ? Future.succeededFuture(prepared.from())
            : onReaders(pages::end);
    Promise<HttpResult> done = Promise.promise();
    start
        .onSuccess(from -> new EventStream(this, request, prepared, from, done).begin())
        .onFailure(done::fail);
    return done.future().onComplete(ended -> release.run()).recover(EventsHandlers::gone);
  }

  /** Reads one page for the request, on the endpoint's readers. */
  Future<EventLogPages.Page> read(EventRequest request, int pageSize, ServedEvents served) {
    return this.<EventLogPages.Page>onReaders(
            () ->
                pages.read(
                    request.from(),
                    request.since(),
                    pageSize,
                    SCAN_LIMIT,
                    served::kept,
                    served::visible))
        .recover(EventsHandlers::gone);
  }

  /**
   * The request's view of the log with the caller's access now; which entity holds a name is read
   * from this instance's stores, or asked of the instance that holds it.
   */
  ServedEvents served(RequestContext request, EventRequest prepared) {
    String warehouse = prepared.warehouse();
    return new ServedEvents(
        prepared,
        catalog.access(),
        (name, view) -> {
          try {
            return catalog.queries().uuidNow(warehouse, name, view);
          } catch (NotLocalException owner) {
            return OwnerReads.holder(owner, request, warehouse, name, view);
          }
        });
  }

  CatalogContext catalog() {
    return catalog;
  }

  EventTail tail() {
    return tail;
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

  private static <T> Future<T> gone(Throwable failure) {
    if (failure instanceof EventLogPages.ExpiredPositionException expired) {
      return Future.failedFuture(new ApiException(ErrorType.GONE, expired.getMessage()));
    }
    if (failure instanceof EventLogPages.BusyException busy) {
      return Future.failedFuture(ApiException.serviceUnavailable(busy.getMessage()));
    }
    return Future.failedFuture(failure);
  }

  private EventRequest prepare(RequestContext request, EventQuery query) {
    String warehouse = catalog.warehouse(request);
    Caller caller = request.caller();
    byte[] key = catalog.tokenSecret();
    String digest = query.filter().digest();
    if (query.token() == null) {
      return new EventRequest(warehouse, caller, key, digest, null, query.since(), query.filter());
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
    return new EventRequest(
        warehouse, caller, key, digest, decoded.positions(), null, query.filter());
  }
}
