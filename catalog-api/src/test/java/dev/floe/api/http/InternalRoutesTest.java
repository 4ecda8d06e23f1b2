package dev.floe.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.projections.NotLocalException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Internal routes answer only Floe's instances: a request without their secret is 401 and with
 * another one 403, before the route does any work; an instance asking another for a claimed
 * location or for the uuid holding a name sends the secret, so it is answered.
 */
class InternalRoutesTest {
  private static final String SYNC = "/internal/v1/access/sync";
  private static final String SECRET = "the-instances-secret";

  private Vertx vertx;
  private final AtomicInteger worked = new AtomicInteger();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void withoutTheSecretAnInternalRouteIsRefusedBeforeItDoesAnything() throws Exception {
    int port = serve(SECRET);

    HttpResponse<String> none = call(port, "POST", SYNC, null);
    HttpResponse<String> wrong = call(port, "POST", SYNC, "not-" + SECRET);
    HttpResponse<String> almost = call(port, "POST", SYNC, SECRET + "x");

    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(errorType(none)).isEqualTo("NotAuthorizedException");
    assertThat(wrong.statusCode()).isEqualTo(403);
    assertThat(errorType(wrong)).isEqualTo("ForbiddenException");
    assertThat(almost.statusCode()).isEqualTo(403);
    assertThat(worked).as("work done for refused requests").hasValue(0);
    assertThat(call(port, "POST", SYNC, SECRET).statusCode()).isEqualTo(204);
    assertThat(worked).hasValue(1);
  }

  @Test
  void anInstanceWithoutASecretRefusesEveryInternalCall() throws Exception {
    int port = serve(null);

    assertThat(call(port, "POST", SYNC, SECRET).statusCode()).isEqualTo(403);
    assertThat(worked).hasValue(0);
  }

  @Test
  void anInstanceAskingForAClaimedLocationOrANamesHolderShowsTheSecret() throws Exception {
    int owner = serve(SECRET);
    int here = serveAsking(owner, SECRET);
    int stranger = serveAsking(owner, "another-catalogs-secret");

    HttpResponse<String> asked = call(here, "GET", "/ask/default", null);
    HttpResponse<String> refused = call(stranger, "GET", "/ask/default", null);

    assertThat(asked.statusCode()).isEqualTo(200);
    assertThat(asked.body()).isEqualTo("file:///lake/db/t table-uuid view-uuid -");
    assertThat(refused.statusCode()).as("the owner refused another secret").isEqualTo(503);
  }

  /** An instance with both internal routes; the claimed location of every table is fixed. */
  private int serve(String secret) throws Exception {
    RestRouter router =
        new RestRouter(AuditLog.NONE)
            .internalAuth(new InternalAuth(() -> Optional.ofNullable(secret)))
            .addUnaudited(
                HttpMethod.POST,
                SYNC,
                request -> {
                  worked.incrementAndGet();
                  return Future.succeededFuture(HttpResult.noContent());
                })
            .add(
                HttpMethod.GET,
                OwnerReads.CLAIMED_PATH,
                request -> {
                  worked.incrementAndGet();
                  return Future.succeededFuture(
                      OwnerReads.claimedAnswer(List.of("file:///lake/db/t")));
                })
            .add(
                HttpMethod.GET,
                OwnerReads.HOLDER_PATH,
                request -> {
                  worked.incrementAndGet();
                  boolean view = "view".equals(request.query("kind"));
                  return Future.succeededFuture(
                      OwnerReads.holderAnswer(
                          request.table().name().equals("t")
                              ? Optional.of(view ? "view-uuid" : "table-uuid")
                              : Optional.empty()));
                });
    return listen(router);
  }

  /** An instance whose {@code /ask/{prefix}} asks the owner for a table's claimed location. */
  private int serveAsking(int owner, String secret) throws Exception {
    RestRouter router =
        new RestRouter(AuditLog.NONE)
            .internalAuth(new InternalAuth(() -> Optional.of(secret)))
            .add(
                HttpMethod.GET,
                "/ask/{prefix}",
                request ->
                    vertx.executeBlocking(
                        () -> {
                          NotLocalException at = new NotLocalException("127.0.0.1", owner);
                          String warehouse = request.warehouse();
                          TableIdentifier t = TableIdentifier.of("db", "t");
                          String answer =
                              String.join(
                                  " ",
                                  OwnerReads.claimed(at, request, warehouse, t).get(0),
                                  OwnerReads.holder(at, request, warehouse, t, false).orElse("-"),
                                  OwnerReads.holder(at, request, warehouse, t, true).orElse("-"),
                                  OwnerReads.holder(
                                          at,
                                          request,
                                          warehouse,
                                          TableIdentifier.of("db", "none"),
                                          false)
                                      .orElse("-"));
                          return new HttpResult(
                              200, answer.getBytes(StandardCharsets.UTF_8), Map.of());
                        },
                        false));
    return listen(router);
  }

  private int listen(RestRouter router) throws Exception {
    return vertx
        .createHttpServer()
        .requestHandler(router::handle)
        .listen(0, "127.0.0.1")
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS)
        .actualPort();
  }

  private static HttpResponse<String> call(int port, String method, String path, String secret)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (secret != null) {
      request.header(InternalAuth.HEADER, secret);
    }
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String errorType(HttpResponse<String> response) throws Exception {
    return new ObjectMapper().readTree(response.body()).path("error").path("type").asText();
  }
}
