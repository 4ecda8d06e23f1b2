package dev.floe.api.http;

import io.vertx.core.http.HttpMethod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.rest.Endpoint;

/**
 * The routes of a {@link RestRouter}, matched on the raw path: each segment is decoded on its own,
 * so a table name containing an encoded {@code /} ({@code %2F}) stays one segment.
 */
final class RouteTable {
  /** A route; {@code endpoint} is the Iceberg REST endpoint it serves, or null for Floe's own. */
  record Route(
      HttpMethod method,
      String path,
      String[] pattern,
      RestRouter.Handler handler,
      boolean audited,
      Endpoint endpoint) {
    /** Probes and the internal routes are answered without a token. */
    boolean open() {
      return !audited;
    }

    /** Only Floe's instances may call it: they show their shared secret ({@link InternalAuth}). */
    boolean internal() {
      return path.startsWith("/internal/");
    }

    String template() {
      return method + " " + path;
    }
  }

  /** The route a request matched and its path parameters, or why none matched. */
  record Match(Route route, Map<String, String> params, ApiException error) {}

  private final List<Route> routes = new ArrayList<>();
  private String defaultPrefix;

  void add(
      HttpMethod method,
      String path,
      RestRouter.Handler handler,
      boolean audited,
      Endpoint endpoint) {
    String[] pattern = path.substring(1).split("/");
    routes.add(new Route(method, path, pattern, handler, audited, endpoint));
  }

  List<Endpoint> endpoints() {
    return routes.stream().map(Route::endpoint).filter(Objects::nonNull).toList();
  }

  List<Route> all() {
    return List.copyOf(routes);
  }

  void defaultPrefix(String warehouse) {
    this.defaultPrefix = warehouse;
  }

  Match match(HttpMethod method, String path) {
    String[] segments = PathPatterns.segments(path);
    Match match = match(method, path, segments);
    if (match.route() == null && defaultPrefix != null && PathPatterns.isPrefixless(segments)) {
      Match withDefault = match(method, path, PathPatterns.withPrefix(segments, defaultPrefix));
      return withDefault.route() != null ? withDefault : match;
    }
    return match;
  }

  private Match match(HttpMethod method, String path, String[] segments) {
    Map<String, String> params = new HashMap<>();
    boolean pathMatched = false;
    for (Route route : routes) {
      params.clear();
      if (PathPatterns.matches(route.pattern(), segments, params)) {
        pathMatched = true;
        if (route.method().equals(method)) {
          return new Match(route, Map.copyOf(params), null);
        }
      }
    }
    return new Match(
        null,
        Map.of(),
        pathMatched
            ? new ApiException(
                ErrorType.METHOD_NOT_ALLOWED, "Method " + method + " is not allowed on " + path)
            : new ApiException(
                ErrorType.NO_SUCH_ENDPOINT, "No such endpoint: " + method + " " + path));
  }
}
