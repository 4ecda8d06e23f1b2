package dev.floe.api.http;

import dev.floe.projections.NotLocalException;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Forwards a read to the instance that hosts its key (several instances share the partitions): the
 * same method, path, query, headers and body, and the owner's answer passed back as it is. A
 * forwarded request is never forwarded again: if ownership moved meanwhile, it is a 503.
 *
 * <p>An owner that is known to have stopped answering (frozen: it keeps its connections and answers
 * nothing; see {@link Silence}) is not sent anything until it answers again: a read fails as its
 * partition moving (the router tries it again while the partition moves: {@link PatientReads}),
 * and a commit is the {@code unsent} case, decided here. Requests already sent to an owner that falls silent are given up
 * ({@link #abandon}): their outcome is unknown, a 503, rather than a wait for the owner's thaw.
 */
public final class Forwarder {
  /** Whether an instance, by its host and port, is known to have stopped answering. */
  @FunctionalInterface
  public interface Silence {
    Silence NONE = (host, port) -> false;

    boolean silent(String host, int port);
  }

  static final String FORWARDED = "X-Floe-Forwarded";
  private static final Set<String> HOP_BY_HOP =
      Set.of(
          "connection",
          "keep-alive",
          "transfer-encoding",
          "te",
          "trailer",
          "upgrade",
          "host",
          "content-length");

  private final HttpClient client;
  private final Silence silence;
  private final Map<String, Set<HttpClientRequest>> inFlight = new ConcurrentHashMap<>();

  public Forwarder(Vertx vertx) {
    this(vertx, Silence.NONE);
  }

  public Forwarder(Vertx vertx, Silence silence) {
    this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true));
    this.silence = silence;
  }

  /**
   * Gives up the requests sent to {@code host:port} that it has not answered: it stopped answering.
   * Each is answered 503 (its outcome is unknown).
   */
  public void abandon(String host, int port) {
    Set<HttpClientRequest> sent = inFlight.get(host + ":" + port);
    if (sent == null) {
      return;
    }
    for (HttpClientRequest request : List.copyOf(sent)) {
      request.reset(0, new IllegalStateException("the instance stopped answering"));
    }
  }

  Future<HttpResult> forward(HttpServerRequest request, Buffer body, NotLocalException owner) {
    return forward(request, body, owner, null);
  }

  /**
   * @param unsent what answers instead when no connection to the owner could be made, so the
   *     request certainly never left; null to answer 503 then, as for every other failure
   */
  Future<HttpResult> forward(
      HttpServerRequest request,
      Buffer body,
      NotLocalException owner,
      Supplier<Future<HttpResult>> unsent) {
    if (request.getHeader(FORWARDED) != null) {
      return Future.failedFuture(
          ApiException.partitionMoving("Partition ownership is moving; retry"));
    }
    if (silence.silent(owner.host(), owner.port())) {
      return unsent == null
          ? Future.failedFuture(
              ApiException.partitionMoving(
                  "The instance that hosts this key is not answering (its partitions move to"
                      + " another instance within its group session); retry"))
          : unsent.get();
    }
    RequestOptions options =
        new RequestOptions()
            .setMethod(request.method())
            .setHost(owner.host())
            .setPort(owner.port())
            .setURI(request.uri())
            .setTimeout(30_000);
    Future<HttpClientRequest> connecting = client.request(options);
    Future<HttpResult> answer =
        connecting
            .compose(outgoing -> tracked(owner, outgoing, exchange(outgoing, request, body)))
            .recover(Forwarder::ownerUnreachable);
    return unsent == null
        ? answer
        : answer.recover(error -> connecting.failed() ? unsent.get() : Future.failedFuture(error));
  }

  /** Keeps {@code outgoing} among the owner's requests in flight until {@code answer} completes. */
  private <T> Future<T> tracked(
      NotLocalException owner, HttpClientRequest outgoing, Future<T> answer) {
    String key = owner.host() + ":" + owner.port();
    Set<HttpClientRequest> sent = inFlight.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet());
    sent.add(outgoing);
    return answer.onComplete(done -> sent.remove(outgoing));
  }

  /** Sends the request as it came, marked as forwarded, and reads the owner's answer. */
  private static Future<HttpResult> exchange(
      HttpClientRequest outgoing, HttpServerRequest request, Buffer body) {
    copyHeaders(request.headers(), outgoing.headers());
    outgoing.putHeader(FORWARDED, "1");
    return outgoing
        .send(body == null ? Buffer.buffer() : body)
        .compose(
            answer ->
                answer
                    .body()
                    .map(
                        payload -> {
                          Map<String, String> headers = new HashMap<>();
                          answer
                              .headers()
                              .forEach(
                                  (k, v) -> {
                                    if (!HOP_BY_HOP.contains(k.toLowerCase(Locale.ROOT))) {
                                      headers.put(k, v);
                                    }
                                  });
                          return new HttpResult(
                              answer.statusCode(),
                              payload.length() == 0 ? null : payload.getBytes(),
                              headers);
                        }));
  }

  /**
   * The owner did not answer (it died, or is restarting, and its partitions have not moved yet): a
   * 503 the client retries, not a 500, and no stack trace in the log for an expected event.
   */
  private static Future<HttpResult> ownerUnreachable(Throwable error) {
    return Future.failedFuture(
        ApiException.partitionMoving(
            "The instance that hosts this key did not answer (" + error.getMessage() + "); retry"));
  }

  private static void copyHeaders(MultiMap from, MultiMap to) {
    from.forEach(
        (name, value) -> {
          if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
            to.add(name, value);
          }
        });
  }
}
