package dev.floe.api.http;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Matches requests to handlers on the raw path, decoding each segment on its own, so a table name
 * containing an encoded {@code /} ({@code %2F}) stays one segment.
 */
public final class RestRouter {
  /** Request bodies larger than this are refused with 413. */
  public static final long MAX_BODY_BYTES = 10L * 1024 * 1024;

  /** A handler answers asynchronously; a thrown or failed {@link ApiException} becomes an ErrorModel. */
  public interface Handler {
    Future<HttpResult> handle(RequestContext context);
  }

  private record Route(HttpMethod method, String path, String[] pattern, Handler handler) {
    String template() {
      return method + " " + path;
    }
  }

  private final List<Route> routes = new ArrayList<>();
  private final AuditLog audit;

  public RestRouter(AuditLog audit) {
    this.audit = audit;
  }

  public RestRouter add(HttpMethod method, String path, Handler handler) {
    routes.add(new Route(method, path, path.substring(1).split("/"), handler));
    return this;
  }

  public void handle(HttpServerRequest request) {
    String contentLength = request.getHeader("Content-Length");
    if (contentLength != null && parseLong(contentLength) > MAX_BODY_BYTES) {
      request.pause();
      fail(request.response(), new ApiException(413, "RequestTooLargeException", "Request body exceeds " + MAX_BODY_BYTES + " bytes"));
      request.connection().close();
      return;
    }
    String[] segments = segments(request.path());
    Map<String, String> params = new HashMap<>();
    Route match = null;
    boolean pathMatched = false;
    for (Route route : routes) {
      params.clear();
      if (matches(route.pattern(), segments, params)) {
        pathMatched = true;
        if (route.method().equals(request.method())) {
          match = route;
          break;
        }
      }
    }
    if (match == null) {
      fail(request.response(), pathMatched
          ? new ApiException(405, "MethodNotAllowedException", "Method " + request.method() + " is not allowed on " + request.path())
          : new ApiException(404, "NoSuchEndpointException", "No such endpoint: " + request.method() + " " + request.path()));
      return;
    }
    Route route = match;
    Map<String, String> captured = Map.copyOf(params);
    request.body()
        .onFailure(e -> fail(request.response(), HttpErrors.from(e)))
        .onSuccess(body -> dispatch(request, route, captured, body));
  }

  private void dispatch(HttpServerRequest request, Route route, Map<String, String> params, Buffer body) {
    HttpServerResponse response = request.response();
    RequestContext context = new RequestContext(request, params, body);
    response.putHeader("X-Request-Id", context.requestId());
    if (body != null && body.length() > MAX_BODY_BYTES) {
      failAudited(context, route, new ApiException(413, "RequestTooLargeException", "Request body exceeds " + MAX_BODY_BYTES + " bytes"));
      return;
    }
    Future<HttpResult> result;
    try {
      result = route.handler().handle(context);
    } catch (RuntimeException e) {
      failAudited(context, route, HttpErrors.from(e));
      return;
    }
    result.onComplete(
        done -> {
          if (done.failed()) {
            failAudited(context, route, HttpErrors.from(done.cause()));
            return;
          }
          audit.record(context, route.template(), done.result().status(), null);
          HttpResult answer = done.result();
          response.setStatusCode(answer.status());
          answer.headers().forEach(response::putHeader);
          if (answer.body() == null || request.method() == HttpMethod.HEAD) {
            response.end();
          } else {
            if (!response.headers().contains("Content-Type")) {
              response.putHeader("Content-Type", "application/json");
            }
            response.end(Buffer.buffer(answer.body()));
          }
        });
  }

  private void failAudited(RequestContext context, Route route, ApiException error) {
    fail(context.response(), error);
    audit.record(context, route.template(), error.status(), error);
  }

  private static void fail(HttpServerResponse response, ApiException error) {
    if (!response.ended()) {
      HttpErrors.respond(response, error);
    }
  }

  private static boolean matches(String[] pattern, String[] segments, Map<String, String> params) {
    if (pattern.length != segments.length) {
      return false;
    }
    for (int i = 0; i < pattern.length; i++) {
      String p = pattern[i];
      if (p.startsWith("{")) {
        params.put(p.substring(1, p.length() - 1), segments[i]);
      } else if (!p.equals(segments[i])) {
        return false;
      }
    }
    return true;
  }

  private static String[] segments(String rawPath) {
    String path = rawPath.startsWith("/") ? rawPath.substring(1) : rawPath;
    String[] raw = path.split("/", -1);
    String[] decoded = new String[raw.length];
    for (int i = 0; i < raw.length; i++) {
      try {
        decoded[i] = URLDecoder.decode(raw[i], StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        decoded[i] = raw[i];
      }
    }
    return decoded;
  }

  private static long parseLong(String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
