package dev.floe.infra.config;

import java.time.Duration;
import java.util.Properties;

/**
 * Bounds on the HTTP server's connections, so that clients which open connections and send little
 * or nothing, or hold event streams open, cannot hold an instance's connections or file
 * descriptors.
 *
 * @param headerTimeout a connection that has not delivered a complete request head this long after
 *     it opened, or after its previous response ended (keep-alive), is closed; sending slowly does
 *     not extend it
 * @param idleTimeout a connection on which nothing is read or written for this long is closed
 * @param maxConnections open connections per instance; a connection beyond it is closed at once
 * @param maxStreams open event streams per instance, well below {@code maxConnections}, so streams
 *     never take the connections other requests and {@code /health/*} need
 * @param maxStreamsPerPrincipal open event streams per principal on one instance
 * @param maxStreamLifetime how long one event stream lasts before the server ends it (the client
 *     resumes with {@code Last-Event-ID})
 */
public record HttpConfig(
    Duration headerTimeout,
    Duration idleTimeout,
    int maxConnections,
    int maxStreams,
    int maxStreamsPerPrincipal,
    Duration maxStreamLifetime) {
  public static final HttpConfig DEFAULT =
      new HttpConfig(
          Duration.ofSeconds(10), Duration.ofSeconds(60), 1000, 100, 8, Duration.ofHours(1));

  public HttpConfig {
    if (headerTimeout.isNegative() || headerTimeout.isZero()) {
      throw new IllegalArgumentException("floe.http.header-timeout must be positive");
    }
    if (idleTimeout.isNegative() || idleTimeout.isZero()) {
      throw new IllegalArgumentException("floe.http.idle-timeout must be positive");
    }
    if (maxConnections < 1) {
      throw new IllegalArgumentException("floe.http.max-connections must be at least 1");
    }
    if (maxStreams < 0 || maxStreams >= maxConnections) {
      throw new IllegalArgumentException(
          "floe.events.stream.max must be at least 0 and below floe.http.max-connections");
    }
    if (maxStreamsPerPrincipal < 0) {
      throw new IllegalArgumentException("floe.events.stream.max-per-principal must be at least 0");
    }
    if (maxStreamLifetime.isNegative() || maxStreamLifetime.isZero()) {
      throw new IllegalArgumentException("floe.events.stream.max-lifetime must be positive");
    }
  }

  static HttpConfig fromProperties(Properties props) {
    int maxConnections = Integer.parseInt(props.getProperty("floe.http.max-connections", "1000"));
    return new HttpConfig(
        Duration.parse(props.getProperty("floe.http.header-timeout", "PT10S")),
        Duration.parse(props.getProperty("floe.http.idle-timeout", "PT60S")),
        maxConnections,
        Integer.parseInt(
            props.getProperty(
                "floe.events.stream.max", Integer.toString(Math.max(0, maxConnections / 10)))),
        Integer.parseInt(props.getProperty("floe.events.stream.max-per-principal", "8")),
        Duration.parse(props.getProperty("floe.events.stream.max-lifetime", "PT1H")));
  }
}
