package dev.floe.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.testing.FreePorts;
import dev.floe.projections.NotLocalException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.NetServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A commit that the table's owner can write ahead is sent to the owner over real HTTP; when no
 * connection to the owner can be made, the request never left and this instance commits it itself;
 * when the owner fails after the request left, the outcome is unknown: 503, and it is not committed
 * here a second time. A read whose key's partition is moving waits here for its new owner, up to a
 * bound, then is a 503 with {@code Retry-After}; a commit's 503 is never tried again.
 */
class ForwardedCommitsTest {
  private Vertx vertx;
  private final AtomicInteger committedHere = new AtomicInteger();
  private int ownerPort;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    ownerPort = FreePorts.next();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aCommitGoesToTheOwnerThatWritesAhead() throws Exception {
    serve(ownerPort, context -> answer("owner, answering here: " + context.answerHere()));
    int here = serve(0, this::commitHere);

    HttpResponse<String> answer = post(here, "/commit");

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo("owner, answering here: true");
    assertThat(committedHere).as("decisions taken here").hasValue(1);
  }

  @Test
  void anUnreachableOwnerLeavesTheCommitToThisInstance() throws Exception {
    int here = serve(0, this::commitHere);

    HttpResponse<String> answer = post(here, "/commit");

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo("committed here");
    assertThat(committedHere).hasValue(2);
  }

  @Test
  void anOwnerThatFailsAfterTheRequestLeftIsAnUnknownOutcomeNotASecondCommit() throws Exception {
    NetServer dropsEveryRequest =
        vertx.createNetServer().connectHandler(socket -> socket.handler(data -> socket.close()));
    await(dropsEveryRequest.listen(ownerPort, "127.0.0.1"));
    int here = serve(0, this::commitHere);

    HttpResponse<String> answer = post(here, "/commit");

    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(answer.body()).contains("ServiceUnavailableException");
    assertThat(committedHere).as("only the first pass, which sent it on").hasValue(1);
  }

  @Test
  void aReadForAnUnreachableOwnerIsStill503() throws Exception {
    int here =
        serve(0, context -> Future.failedFuture(new NotLocalException("127.0.0.1", ownerPort)));

    assertThat(post(here, "/commit").statusCode()).isEqualTo(503);
  }

  @Test
  void aSilentOwnerIsSentNothingAndTheCommitIsDecidedHere() throws Exception {
    AtomicInteger ownerSaw = new AtomicInteger();
    serve(
        ownerPort,
        context -> {
          ownerSaw.incrementAndGet();
          return answer("owner");
        });
    int here = serve(0, this::commitHere, new Forwarder(vertx, (host, port) -> port == ownerPort));

    HttpResponse<String> answer = post(here, "/commit");

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo("committed here");
    assertThat(ownerSaw).as("requests the silent owner got").hasValue(0);
  }

  @Test
  void aForwardToASilentOwnerFailsAtOnce() throws Exception {
    NetServer neverAnswers = vertx.createNetServer().connectHandler(socket -> {});
    await(neverAnswers.listen(ownerPort, "127.0.0.1"));
    int here =
        serve(
            0,
            context -> Future.failedFuture(new NotLocalException("127.0.0.1", ownerPort)),
            new Forwarder(vertx, (host, port) -> port == ownerPort));

    long start = System.nanoTime();
    HttpResponse<String> answer = post(here, "/commit");

    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(answer.body()).contains("not answering");
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
  }

  @Test
  void whatWasSentToAnOwnerThatFallsSilentIsGivenUpAsUnknown() throws Exception {
    AtomicInteger received = new AtomicInteger();
    NetServer neverAnswers =
        vertx
            .createNetServer()
            .connectHandler(socket -> socket.handler(data -> received.incrementAndGet()));
    await(neverAnswers.listen(ownerPort, "127.0.0.1"));
    Forwarder forwarder = new Forwarder(vertx);
    int here = serve(0, this::commitHere, forwarder);

    CompletableFuture<HttpResponse<String>> answer =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return post(here, "/commit");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (received.get() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(received.get()).as("bytes the owner received").isPositive();
    assertThat(answer).isNotDone();
    vertx.runOnContext(v -> forwarder.abandon("127.0.0.1", ownerPort));

    HttpResponse<String> given = answer.get(10, TimeUnit.SECONDS);
    assertThat(given.statusCode()).isEqualTo(503);
    assertThat(committedHere).as("only the first pass, which sent it on").hasValue(1);
  }

  @Test
  void aReadWaitsHereWhileItsKeysPartitionMovesAndIsAnsweredByTheNewOwner() throws Exception {
    AtomicLong moved = new AtomicLong();
    AtomicInteger tries = new AtomicInteger();
    int here =
        serveRead(
            context -> {
              if (tries.getAndIncrement() == 0) {
                moved.set(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(600));
              }
              return System.nanoTime() < moved.get()
                  ? Future.failedFuture(new NotLocalException("127.0.0.1", ownerPort))
                  : answer("read here, the new owner");
            },
            new Forwarder(vertx, (host, port) -> port == ownerPort));

    HttpResponse<String> answer = get(here, "/read");

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo("read here, the new owner");
    assertThat(tries.get()).as("tries of the handler").isGreaterThan(2);
  }

  @Test
  void aReadWhosePartitionDoesNotMoveInTimeIs503WithRetryAfter() throws Exception {
    AtomicInteger tries = new AtomicInteger();
    int here =
        serveRead(
            context -> {
              tries.incrementAndGet();
              return Future.failedFuture(
                  new dev.floe.projections.StoreUnavailableException("rebalancing", null));
            },
            new Forwarder(vertx));

    long start = System.nanoTime();
    HttpResponse<String> answer = get(here, "/read");
    long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(answer.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(waitedMs)
        .isGreaterThanOrEqualTo(
            TimeUnit.NANOSECONDS.toMillis(PatientReads.PATIENCE_NANOS)
                - PatientReads.RETRY_MS);
    assertThat(tries.get()).isGreaterThan(10);
  }

  @Test
  void aReadRefusedToShedLoadIsAnswered503AtOnce() throws Exception {
    AtomicInteger tries = new AtomicInteger();
    int here =
        serveRead(
            context -> {
              tries.incrementAndGet();
              return Future.failedFuture(ApiException.serviceUnavailable("too many waiting"));
            },
            new Forwarder(vertx));

    HttpResponse<String> answer = get(here, "/read");

    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(answer.body()).contains("too many waiting");
    assertThat(tries).hasValue(1);
  }

  @Test
  void aCommitsUnavailableAnswerIsNotRetriedAndSaysNoRetryAfter() throws Exception {
    AtomicInteger tries = new AtomicInteger();
    int here =
        serve(
            0,
            context -> {
              tries.incrementAndGet();
              return Future.failedFuture(
                  new dev.floe.projections.StoreUnavailableException("rebalancing", null));
            });

    HttpResponse<String> answer = post(here, "/commit");

    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(answer.headers().firstValue("Retry-After")).isEmpty();
    assertThat(tries).hasValue(1);
  }

  /** The commit handler of an instance that does not host the table. */
  private Future<HttpResult> commitHere(RequestContext context) {
    committedHere.incrementAndGet();
    if (!context.answerHere()) {
      return Future.failedFuture(
          new OwnerWritesAhead(new NotLocalException("127.0.0.1", ownerPort)));
    }
    return answer("committed here");
  }

  private static Future<HttpResult> answer(String body) {
    return Future.succeededFuture(
        new HttpResult(200, body.getBytes(StandardCharsets.UTF_8), Map.of()));
  }

  private int serve(int port, RestRouter.Handler handler) throws Exception {
    return serve(port, handler, new Forwarder(vertx));
  }

  private int serve(int port, RestRouter.Handler handler, Forwarder forwarder) throws Exception {
    return serve(port, HttpMethod.POST, "/commit", handler, forwarder);
  }

  private int serveRead(RestRouter.Handler handler, Forwarder forwarder) throws Exception {
    return serve(0, HttpMethod.GET, "/read", handler, forwarder);
  }

  private int serve(
      int port, HttpMethod method, String path, RestRouter.Handler handler, Forwarder forwarder)
      throws Exception {
    RestRouter router =
        new RestRouter(AuditLog.NONE)
            .add(method, path, handler)
            .withForwarder(forwarder, "127.0.0.1:" + port);
    HttpServer server =
        await(vertx.createHttpServer().requestHandler(router::handle).listen(port, "127.0.0.1"));
    return server.actualPort();
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> post(int port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
