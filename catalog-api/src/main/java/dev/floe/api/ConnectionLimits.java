package dev.floe.api;

import dev.floe.infra.config.HttpConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keeps connections that send nothing useful from holding the server: a connection beyond {@code
 * floe.http.max-connections} is closed as soon as it opens, and one that has not delivered a
 * complete request head within {@code floe.http.header-timeout} of opening, or of its last response
 * ending, is closed (a client trickling a header byte by byte gains nothing). Vert.x's idle timeout
 * covers connections that go silent in the middle of a request.
 */
final class ConnectionLimits {
  private final Vertx vertx;
  private final long headerTimeoutMillis;
  private final int maxConnections;
  private final AtomicInteger open = new AtomicInteger();
  private final Map<HttpConnection, Connection> connections = new ConcurrentHashMap<>();

  ConnectionLimits(Vertx vertx, HttpConfig config) {
    this.vertx = vertx;
    this.headerTimeoutMillis = Math.max(1, config.headerTimeout().toMillis());
    this.maxConnections = config.maxConnections();
  }

  /** The server's connection handler: runs on the connection's event loop as it opens. */
  void onConnection(HttpConnection connection) {
    if (open.incrementAndGet() > maxConnections) {
      open.decrementAndGet();
      connection.close();
      return;
    }
    Connection state = new Connection(connection);
    connections.put(connection, state);
    connection.closeHandler(
        v -> {
          open.decrementAndGet();
          connections.remove(connection);
          state.disarm();
        });
    state.arm();
  }

  /** Before a request is handled: its head is complete; the clock restarts when it is answered. */
  void onRequest(HttpServerRequest request) {
    Connection state = connections.get(request.connection());
    if (state == null) {
      return;
    }
    state.requestStarted();
    request.response().bodyEndHandler(v -> state.requestEnded());
  }

  /**
   * One connection's clock. Every callback runs on the connection's event loop (Vert.x runs a
   * connection's handlers and the timers they set there), so the fields need no locking.
   */
  private final class Connection {
    private final HttpConnection connection;
    private int inFlight;
    private long timer = -1;

    Connection(HttpConnection connection) {
      this.connection = connection;
    }

    void requestStarted() {
      inFlight++;
      disarm();
    }

    void requestEnded() {
      inFlight = Math.max(0, inFlight - 1);
      if (inFlight == 0) {
        arm();
      }
    }

    void arm() {
      disarm();
      timer =
          vertx.setTimer(
              headerTimeoutMillis,
              id -> {
                timer = -1;
                if (inFlight == 0) {
                  connection.close();
                }
              });
    }

    void disarm() {
      if (timer >= 0) {
        vertx.cancelTimer(timer);
        timer = -1;
      }
    }
  }
}
