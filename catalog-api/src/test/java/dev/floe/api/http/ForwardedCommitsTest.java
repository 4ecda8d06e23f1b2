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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A commit that the table's owner can write ahead is sent to the owner over real HTTP; when no
 * connection to the owner can be made, the request never left and this instance commits it itself;
 * when the owner fails after the request left, the outcome is unknown: 503, and it is not committed
 * here a second time. Reads keep their 503.
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
    RestRouter router =
        new RestRouter(AuditLog.NONE)
            .add(HttpMethod.POST, "/commit", handler)
            .withForwarder(new Forwarder(vertx), "127.0.0.1:" + port);
    HttpServer server =
        await(vertx.createHttpServer().requestHandler(router::handle).listen(port, "127.0.0.1"));
    return server.actualPort();
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
