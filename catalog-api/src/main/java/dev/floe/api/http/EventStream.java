package dev.floe.api.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import dev.floe.projections.events.EventLogPages;
import dev.floe.projections.events.EventLogPages.Item;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open event stream ({@code GET /v1/{prefix}/events/stream}): reads what is new whenever the
 * instance's tail says the log has news (or a keep-alive period passed), writes it as Server-Sent
 * Events whose ids are continuation tokens, until the client goes away, its token stops holding
 * (checked before anything is written, and at every keep-alive), or its lifetime is over.
 */
final class EventStream {
  /** How often an idle stream writes a comment, which keeps proxies and idle timeouts away. */
  static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

  private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);

  private final EventsHandlers handlers;
  private final RequestContext request;
  private final EventRequest prepared;
  private final Promise<HttpResult> done;
  private final HttpServerResponse response;
  private List<Long> from;
  private Long since;
  private boolean reading;
  private boolean news;
  private boolean closed;
  private Runnable unlisten = () -> {};
  private long keepAlive = -1;
  private long lifetime = -1;

  EventStream(
      EventsHandlers handlers,
      RequestContext request,
      EventRequest prepared,
      List<Long> from,
      Promise<HttpResult> done) {
    this.handlers = handlers;
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
    Vertx vertx = handlers.catalog().vertx();
    Context context = vertx.getOrCreateContext();
    unlisten = handlers.tail().listen(() -> context.runOnContext(v -> read()));
    lifetime =
        vertx.setTimer(
            handlers.catalog().config().http().maxStreamLifetime().toMillis(),
            id -> {
              if (!closed) {
                // The client reconnects after the retry hint, with Last-Event-ID: nothing is lost.
                response.write(": the stream's lifetime is over: resume with Last-Event-ID\n\n");
                close();
              }
            });
    keepAlive =
        vertx.setPeriodic(
            KEEP_ALIVE.toMillis(),
            id -> {
              if (!closed && stillAuthenticated()) {
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
    EventRequest now = prepared.at(from, since);
    ServedEvents served = handlers.served(request, now);
    handlers
        .read(now, EventQuery.STREAM_PAGE_SIZE, served)
        .onComplete(
            result -> {
              reading = false;
              // Checked again before anything is written: the token may have gone while the page
              // was read.
              if (closed || !stillAuthenticated()) {
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
                out.append("data: ").append(served.json(item, page)).append("\n\n");
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

  /**
   * False, after ending the stream with an {@code error} event (401), once the token it was opened
   * with no longer holds: revoked, expired, its principal deleted, an OIDC token past {@code exp}.
   */
  private boolean stillAuthenticated() {
    String problem = request.credentialsProblem();
    if (problem == null) {
      return true;
    }
    endWith(ApiException.notAuthenticated(problem));
    return false;
  }

  /** Ends the stream with an {@code error} event whose data is the error's message, type, code. */
  private void endWith(ApiException error) {
    ObjectNode data = FloeJson.mapper().createObjectNode();
    data.put("message", error.getMessage()).put("type", error.type()).put("code", error.status());
    response.write("event: error\ndata: " + data + "\n\n");
    close();
  }

  private void fail(Throwable cause) {
    if (cause instanceof ApiException gone && gone.errorType() == ErrorType.GONE) {
      endWith(gone);
      return;
    }
    LOG.warn(
        "An event stream ({}) could not read the log: {}", request.requestId(), cause.toString());
    handlers.catalog().vertx().setTimer(1000, id -> read());
  }

  private void close() {
    if (closed) {
      return;
    }
    closed = true;
    unlisten.run();
    if (keepAlive >= 0) {
      handlers.catalog().vertx().cancelTimer(keepAlive);
    }
    if (lifetime >= 0) {
      handlers.catalog().vertx().cancelTimer(lifetime);
    }
    if (!response.ended() && !response.closed()) {
      response.end();
    }
    done.tryComplete(HttpResult.STREAMED);
  }
}
