package dev.floe.infra.config;

import java.time.Duration;
import java.util.Properties;

/**
 * Bounds on the HTTP server's connections, so that clients which open connections and send little
 * or nothing cannot hold an instance's connections or file descriptors.
 *
 * @param headerTimeout a connection that has not delivered a complete request head this long after
 *     it opened, or after its previous response ended (keep-alive), is closed; sending slowly does
 *     not extend it
 * @param idleTimeout a connection on which nothing is read or written for this long is closed
 * @param maxConnections open connections per instance; a connection beyond it is closed at once
 */
public record HttpConfig(Duration headerTimeout, Duration idleTimeout, int maxConnections) {
  public static final HttpConfig DEFAULT =
      new HttpConfig(Duration.ofSeconds(10), Duration.ofSeconds(60), 1000);

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
  }

  static HttpConfig fromProperties(Properties props) {
    return new HttpConfig(
        Duration.parse(props.getProperty("floe.http.header-timeout", "PT10S")),
        Duration.parse(props.getProperty("floe.http.idle-timeout", "PT60S")),
        Integer.parseInt(props.getProperty("floe.http.max-connections", "1000")));
  }
}
