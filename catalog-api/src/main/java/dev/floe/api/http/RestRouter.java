package dev.floe.api.http;

import dev.floe.api.auth.Authenticator;
import dev.floe.api.http.RouteTable.Route;
import dev.floe.events.RestRequestLimits;
import dev.floe.infra.config.AuthConfig;
import dev.floe.projections.NotLocalException;
import dev.floe.projections.access.AccessSnapshot;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.rest.Endpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a request through its route ({@link RouteTable}): bounds its body, authenticates the
 * caller, runs the handler (forwarded when another instance hosts the key) and answers, an error as
 * the ErrorModel. Every answer is timed by route template and status, every command's outcome
 * counted ({@link CatalogMetrics}) and every audited route's request recorded ({@link AuditLog}).
 */
public final class RestRouter {
  private static final Logger LOG = LoggerFactory.getLogger(RestRouter.class);

  /** Request bodies larger than this are refused with 413, declared or chunked. */
  public static final long MAX_BODY_BYTES = RestRequestLimits.MAX_DOCUMENT_BYTES;

  /** The route label of a request that matched no route (the raw path would be unbounded). */
  static final String UNMATCHED = "unmatched";

  /**
   * A handler answers asynchronously; a thrown or failed {@link ApiException} becomes an
   * ErrorModel.
   */
  public interface Handler {
    Future<HttpResult> handle(RequestContext context);
  }

  private final RouteTable routes = new RouteTable();
  private final AuditLog audit;
  private CatalogMetrics metrics = new CatalogMetrics();

  public RestRouter(AuditLog audit) {
    this.audit = audit;
  }

  public RestRouter add(HttpMethod method, String path, Handler handler) {
    routes.add(method, path, handler, true, null);
    return this;
  }

  /**
   * The route of an Iceberg REST endpoint, at the endpoint's method and path: {@code GET
   * /v1/config} advertises exactly the endpoints added this way ({@link #endpoints()}).
   */
  public RestRouter add(Endpoint endpoint, Handler handler) {
    HttpMethod method = HttpMethod.valueOf(endpoint.httpMethod());
    routes.add(method, PathPatterns.template(endpoint), handler, true, endpoint);
    return this;
  }

  /**
   * A route that is never audited (probes: a health check changes nothing and is not a read of the
   * catalog).
   */
  public RestRouter addUnaudited(HttpMethod method, String path, Handler handler) {
    routes.add(method, path, handler, false, null);
    return this;
  }

  /** The Iceberg REST endpoints this router serves, in the order their routes were added. */
  public List<Endpoint> endpoints() {
    return routes.endpoints();
  }

  List<Route> routes() {
    return routes.all();
  }

  /**
   * The warehouse that serves {@code /v1/namespaces…}, {@code /v1/tables…}, {@code /v1/views…} and
   * {@code /v1/transactions…} without a prefix: the REST spec's prefix is optional, and a client
   * that ignores the config's (iceberg-js without a warehouse) calls those paths.
   */
  public RestRouter defaultPrefix(String warehouse) {
    routes.defaultPrefix(warehouse);
    return this;
  }

  /** Where request latency and command outcomes are recorded; set before the router serves. */
  public RestRouter metrics(CatalogMetrics metrics) {
    this.metrics = metrics;
    return this;
  }

  public void handle(HttpServerRequest request) {
    long started = System.nanoTime();
    RouteTable.Match match = routes.match(request.method(), request.path());
    Route route = match.route();
    HttpServerResponse response = request.response();
    String method =
        route == null ? CatalogMetrics.methodLabel(request.method()) : route.method().name();
    String template = route == null ? UNMATCHED : route.path();
    response.endHandler(
        v ->
            metrics.recordRequest(
                method, template, response.getStatusCode(), System.nanoTime() - started));
    long declared = BoundedBody.declaredLength(request);
    if (declared > MAX_BODY_BYTES) {
      refuseTooLarge(request, route, match.params(), 0, declared);
      return;
    }
    if (route == null) {
      fail(response, match.error());
      return;
    }
    ApiException notAnInstance =
        route.internal() ? internalAuth.refusal(request.getHeader(InternalAuth.HEADER)) : null;
    if (notAnInstance != null) {
      // Refused before the body is read or anything is audited: it costs this instance nothing.
      fail(response, notAnInstance);
      return;
    }
    if (match.params().values().stream().anyMatch(value -> value.indexOf('\u0000') >= 0)) {
      // No Iceberg name may hold a null byte (Namespace.of refuses one); refused here, before a
      // command could carry one to the processor, whose keys cannot represent it.
      failAudited(
          new RequestContext(request, match.params(), null),
          route,
          ApiException.badRequest("Invalid path: a segment contains a null byte"));
      return;
    }
    BoundedBody.read(request, MAX_BODY_BYTES)
        .onSuccess(body -> dispatch(request, route, match.params(), body))
        .onFailure(
            e -> {
              if (e instanceof BoundedBody.TooLargeException tooLarge) {
                refuseTooLarge(request, route, match.params(), tooLarge.received(), declared);
              } else if (!response.closed()) {
                failAudited(
                    new RequestContext(request, match.params(), null), route, HttpErrors.from(e));
              }
            });
  }

  /** The route that serves this method and raw path, or null. */
  Route route(HttpMethod method, String path) {
    return routes.match(method, path).route();
  }

  /**
   * 413 without reading the body into memory. The connection is closed afterwards: the rest of the
   * body cannot be told apart from a next request.
   */
  private void refuseTooLarge(
      HttpServerRequest request,
      Route route,
      Map<String, String> params,
      long received,
      long declared) {
    RequestContext context = new RequestContext(request, params, null);
    HttpServerResponse response = request.response();
    response.putHeader("X-Request-Id", context.requestId()).putHeader("Connection", "close");
    ApiException error =
        new ApiException(
            ErrorType.REQUEST_TOO_LARGE, "Request body exceeds " + MAX_BODY_BYTES + " bytes");
    Future<Void> answered = HttpErrors.respond(response, error);
    if (route != null) {
      recordOutcome(context, route, error.status(), error);
    }
    BoundedBody.discardAndClose(request, answered, received, declared);
  }

  private void dispatch(
      HttpServerRequest request, Route route, Map<String, String> params, Buffer body) {
    HttpServerResponse response = request.response();
    if (servedBy != null) {
      response.putHeader("X-Floe-Served-By", servedBy);
    }
    RequestContext context = new RequestContext(request, params, body);
    context.internalAuth(internalAuth);
    response.putHeader("X-Request-Id", context.requestId());
    if (!route.open()) {
      try {
        String authorization = request.getHeader("Authorization");
        context.caller(authenticator.authenticate(authorization));
        // A long-lived answer (an event stream) asks again whether the token still holds.
        context.reauthentication(() -> authenticator.authenticate(authorization));
      } catch (Authenticator.NotAuthenticatedException e) {
        response.putHeader("WWW-Authenticate", "Bearer");
        failAudited(context, route, ApiException.notAuthenticated(e.getMessage()));
        return;
      }
    }
    Future<HttpResult> result = attempt(request, body, route, context);
    // A forwarded read waits on the instance that forwarded it, which looks for the key's owner
    // again at each try; here it would only meet the same moved partition.
    if (forwarder != null
        && !route.open()
        && isRead(request.method())
        && request.getHeader(Forwarder.FORWARDED) == null) {
      result = PatientReads.until(result, () -> attempt(request, body, route, context), response);
    }
    result.onComplete(
        done -> {
          try {
            answer(request, response, context, route, done);
          } catch (Throwable e) {
            // Never leave a request unanswered, whatever broke while answering it.
            LOG.error("Failed while answering request {}", context.requestId(), e);
            if (!response.ended() && !response.headWritten()) {
              fail(response, ApiException.internalError(e));
            } else if (!response.ended()) {
              response.reset();
            }
          }
        });
  }

  private void answer(
      HttpServerRequest request,
      HttpServerResponse response,
      RequestContext context,
      Route route,
      AsyncResult<HttpResult> done) {
    if (done.failed()) {
      failAudited(context, route, HttpErrors.from(done.cause()));
      return;
    }
    HttpResult answer = done.result();
    recordOutcome(context, route, answer.status(), null);
    if (answer == HttpResult.STREAMED) {
      return;
    }
    response.setStatusCode(answer.status());
    if (servedBy != null) {
      response.putHeader("X-Floe-Served-By", servedBy);
    }
    // A forwarded answer carries the owner's own X-Floe-Served-By, which replaces ours.
    answer.headers().forEach(response::putHeader);
    if (answer.body() == null || request.method() == HttpMethod.HEAD) {
      response.end();
    } else {
      if (!response.headers().contains("Content-Type")) {
        response.putHeader("Content-Type", "application/json");
      }
      response.end(Buffer.buffer(answer.body()));
    }
  }

  /** The handler, its answer forwarded when another instance hosts the key. */
  private Future<HttpResult> attempt(
      HttpServerRequest request, Buffer body, Route route, RequestContext context) {
    Future<HttpResult> result;
    try {
      result = route.handler().handle(context);
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    return result.recover(error -> forwardIfElsewhere(request, body, error, route, context));
  }

  private static boolean isRead(HttpMethod method) {
    return method == HttpMethod.GET || method == HttpMethod.HEAD;
  }

  /**
   * A read whose key another instance hosts is answered by that instance; so is a commit that
   * instance can write ahead ({@link OwnerWritesAhead}), which this instance commits itself when
   * the owner cannot be reached at all.
   */
  private Future<HttpResult> forwardIfElsewhere(
      HttpServerRequest request,
      Buffer body,
      Throwable error,
      Route route,
      RequestContext context) {
    Throwable cause = HttpErrors.unwrap(error);
    if (cause instanceof OwnerWritesAhead owner) {
      Supplier<Future<HttpResult>> here =
          () -> {
            context.answerHere(true);
            try {
              return route.handler().handle(context);
            } catch (RuntimeException e) {
              return Future.failedFuture(e);
            }
          };
      return forwarder == null ? here.get() : forwarder.forward(request, body, owner, here);
    }
    if (cause instanceof NotLocalException owner && forwarder != null) {
      return forwarder.forward(request, body, owner);
    }
    return Future.failedFuture(error);
  }

  private Forwarder forwarder;

  private Authenticator authenticator =
      new Authenticator(AuthConfig.NONE, () -> AccessSnapshot.EMPTY);

  /** How requests are authenticated (default: not at all, every caller is {@code anonymous}). */
  public RestRouter authenticator(Authenticator authenticator) {
    this.authenticator = authenticator;
    return this;
  }

  private InternalAuth internalAuth = new InternalAuth(Optional::empty);

  /** How internal routes recognise Floe's instances (default: nothing is recognised). */
  public RestRouter internalAuth(InternalAuth internalAuth) {
    this.internalAuth = internalAuth;
    return this;
  }

  private String servedBy;

  /**
   * Enables forwarding of reads to the instance that hosts their key; every answer this instance
   * produces itself names it in {@code X-Floe-Served-By} (a forwarded answer keeps the owner's).
   */
  public RestRouter withForwarder(Forwarder forwarder, String servedBy) {
    this.forwarder = forwarder;
    this.servedBy = servedBy;
    return this;
  }

  private void failAudited(RequestContext context, Route route, ApiException error) {
    fail(context.response(), error);
    recordOutcome(context, route, error.status(), error);
  }

  private void recordOutcome(RequestContext context, Route route, int status, ApiException error) {
    if (context.commandId() != null) {
      metrics.recordCommand(route.template(), context.commandId(), error);
    }
    if (route.audited()) {
      audit.record(context, route.template(), status, error);
    }
  }

  private static void fail(HttpServerResponse response, ApiException error) {
    if (!response.ended() && !response.closed()) {
      HttpErrors.respond(response, error);
    }
  }
}
