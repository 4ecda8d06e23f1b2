package dev.floe.api.http;

import dev.floe.infra.config.HttpConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Keeps connections that send nothing useful from holding the server: a connection beyond {@code
 * floe.http.max-connections} is closed as soon as it opens, and one that has not delivered a
 * complete request head within {@code floe.http.header-timeout} of opening, or of its last response
 * ending, is closed (a client trickling a header byte by byte gains nothing). Vert.x's idle timeout
 * covers connections that go silent in the middle of a request.
 */
public final class ConnectionLimits {
  private final Vertx vertx;
  private final long headerTimeoutMillis;
  private final int maxConnections;
  private final AtomicInteger open = new AtomicInteger();
  private final LongAdder refused = new LongAdder();
  private final Map<HttpConnection, Connection> connections = new ConcurrentHashMap<>();

  public ConnectionLimits(Vertx vertx, HttpConfig config) {
    this.vertx = vertx;
    this.headerTimeoutMillis = Math.max(1, config.headerTimeout().toMillis());
    this.maxConnections = config.maxConnections();
    // One sweep for every connection instead of a timer set and cancelled per request: a request
    // then costs two field writes (a timer per request was measurable on loads).
    long sweep = Math.max(10, Math.min(1000, headerTimeoutMillis / 4));
    vertx.setPeriodic(sweep, id -> closeSilent(System.nanoTime()));
  }

  /** The server's connection handler: runs on the connection's event loop as it opens. */
  public void onConnection(HttpConnection connection) {
    if (open.incrementAndGet() > maxConnections) {
      open.decrementAndGet();
      refused.increment();
      connection.close();
      return;
    }
    Connection state = new Connection(connection);
    connections.put(connection, state);
    connection.closeHandler(
        v -> {
          open.decrementAndGet();
          connections.remove(connection);
        });
  }

  /** Connections open now, as counted against the cap (a closed one leaves once its close ran). */
  public int open() {
    return open.get();
  }

  /** Connections closed as they opened because the cap was reached, since the start. */
  public long refused() {
    return refused.sum();
  }

  /** Before a request is handled: its head is complete; the clock restarts when it is answered. */
  public void onRequest(HttpServerRequest request) {
    Connection state = connections.get(request.connection());
    if (state == null) {
      return;
    }
    state.inFlight.incrementAndGet();
    request.response().bodyEndHandler(v -> state.requestEnded());
  }

  /** Closes every connection that has waited past the timeout for a request head. */
  private void closeSilent(long now) {
    long timeout = headerTimeoutMillis * 1_000_000L;
    for (Connection state : connections.values()) {
      if (state.inFlight.get() == 0 && now - state.idleSince > timeout) {
        state.connection.close();
      }
    }
  }

  /** One connection's clock: when it last had no request in flight, and how many it has now. */
  private static final class Connection {
    private final HttpConnection connection;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile long idleSince = System.nanoTime();

    Connection(HttpConnection connection) {
      this.connection = connection;
    }

    void requestEnded() {
      idleSince = System.nanoTime();
      inFlight.updateAndGet(n -> Math.max(0, n - 1));
    }
  }
}
