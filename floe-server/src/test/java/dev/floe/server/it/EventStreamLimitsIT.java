package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event streams cannot hold an instance: a principal may keep a few open, the instance a bounded
 * number well below its connections (429 with Retry-After beyond either), so every other caller and
 * {@code /health/ready} are still served; and a stream ends after its lifetime, the client resuming
 * where it was with {@code Last-Event-ID}. Caps are set small here: 2 per principal, 3 per
 * instance, a 10 s lifetime.
 */
class EventStreamLimitsIT {
  private static final String STREAM =
      "/v1/default/events/stream?object-types=table&catalog-objects-by-name=lim%1Ft";

  @TempDir static Path dir;
  private static FloeProcess floe;
  private static String admin;

  @BeforeAll
  static void start() {
    floe =
        new FloeProcess(
                dir.resolve("data"),
                Map.of(
                    "floe.auth", "token",
                    "floe.events.stream.max", "3",
                    "floe.events.stream.max-per-principal", "2",
                    "floe.events.stream.max-lifetime", "PT10S"))
            .start();
    admin = floe.adminToken();
    AuthHttp.expect(
        200, floe.uri(), "POST", "/v1/default/namespaces", admin, "{\"namespace\":[\"lim\"]}");
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/default/namespaces/lim/tables",
        admin,
        "{\"name\":\"t\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
            + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}");
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (floe != null) {
      floe.close();
    }
  }

  @Test
  void aReaderHoldsAtMostItsShareOfStreamsAndEveryoneElseIsServed() throws Exception {
    String narrow = reader("narrow");
    String other = reader("other");
    String third = reader("third");
    List<Sse> open = new ArrayList<>();
    try {
      open.add(Sse.open(narrow, null));
      open.add(Sse.open(narrow, null));
      Sse refused = Sse.open(narrow, null);
      assertThat(refused.status()).as("a third stream of one principal").isEqualTo(429);
      assertThat(refused.retryAfter()).isNotNull();
      assertThat(refused.body()).contains("\"type\":\"TooManyRequestsException\"", "narrow");

      open.add(Sse.open(other, null));
      Sse full = Sse.open(third, null);
      assertThat(full.status()).as("a fourth stream on the instance").isEqualTo(429);
      assertThat(AuthHttp.send(floe.uri(), "GET", "/health/ready", null, null).status())
          .isEqualTo(200);
      assertThat(AuthHttp.send(floe.uri(), "GET", "/v1/default/namespaces", admin, null).status())
          .isEqualTo(200);

      open.remove(0).close();
      assertThat(Sse.openWithin(third, Duration.ofSeconds(5)).status())
          .as("a closed stream frees its slot")
          .isEqualTo(200);
    } finally {
      open.forEach(Sse::close);
    }
  }

  @Test
  void aStreamEndsAfterItsLifetimeAndResumesWhereItWas() throws Exception {
    String reader = reader("lasting");
    Sse first = Sse.open(reader, null);
    assertThat(first.status()).isEqualTo(200);
    commit("a");
    JsonNode seen = first.next(Duration.ofSeconds(5));
    assertThat(first.awaitEnd(Duration.ofSeconds(20))).as("the server ended it").isTrue();
    commit("b");

    Sse resumed = Sse.open(reader, first.lastId());
    try {
      assertThat(resumed.status()).isEqualTo(200);
      JsonNode next = resumed.next(Duration.ofSeconds(5));
      assertThat(next.path("event-id").asText()).isNotEqualTo(seen.path("event-id").asText());
      assertThat(next.path("operation").path("operation-type").asText()).isEqualTo("update-table");
    } finally {
      resumed.close();
    }
  }

  private static String reader(String name) {
    String token = AuthHttp.principalWithToken(floe.uri(), admin, name);
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/default/grants",
        admin,
        "{\"principal\":\""
            + name
            + "\",\"namespace\":[\"lim\"],\"table\":\"t\",\"action\":\"read\"}");
    return token;
  }

  private static void commit(String value) {
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/default/namespaces/lim/tables/t",
        admin,
        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"v\":\""
            + value
            + "\"}}]}");
  }

  /** One stream: its status, and for a 200 its events, read on a thread of its own. */
  private static final class Sse implements AutoCloseable {
    private final CompletableFuture<HttpResponse<Stream<String>>> response;
    private final CountDownLatch head = new CountDownLatch(1);
    private final CountDownLatch end = new CountDownLatch(1);
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private volatile int status;
    private volatile String retryAfter;
    private volatile String lastId;
    private volatile String pendingId;

    private Sse(String token, String lastEventId) {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(floe.uri() + STREAM))
              .header("Authorization", "Bearer " + token)
              .header("Accept", "text/event-stream");
      if (lastEventId != null) {
        request.header("Last-Event-ID", lastEventId);
      }
      response =
          HttpClient.newHttpClient()
              .sendAsync(request.build(), HttpResponse.BodyHandlers.ofLines());
      response.thenAccept(
          r -> {
            status = r.statusCode();
            retryAfter = r.headers().firstValue("Retry-After").orElse(null);
            head.countDown();
            r.body()
                .forEach(
                    line -> {
                      lines.add(line);
                      if (line.startsWith("id: ")) {
                        pendingId = line.substring(4);
                      } else if (line.startsWith("data: ") && status == 200) {
                        try {
                          events.add(AuthHttp.JSON.readTree(line.substring(6)));
                          lastId = pendingId;
                        } catch (java.io.IOException e) {
                          throw new IllegalStateException(e);
                        }
                      }
                    });
            end.countDown();
          });
    }

    static Sse open(String token, String lastEventId) throws InterruptedException {
      Sse sse = new Sse(token, lastEventId);
      assertThat(sse.head.await(10, TimeUnit.SECONDS)).as("an answer").isTrue();
      if (sse.status == 200) {
        // The stream is counted once its first line is out.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (sse.lines.isEmpty() && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
      } else {
        sse.end.await(5, TimeUnit.SECONDS);
      }
      return sse;
    }

    /** Opens until a slot is free (a closed stream's slot frees as the server sees it go). */
    static Sse openWithin(String token, Duration wait) throws InterruptedException {
      long deadline = System.nanoTime() + wait.toNanos();
      while (true) {
        Sse sse = open(token, null);
        if (sse.status == 200 || System.nanoTime() > deadline) {
          return sse;
        }
        Thread.sleep(200);
      }
    }

    int status() {
      return status;
    }

    String retryAfter() {
      return retryAfter;
    }

    String body() {
      return String.join("\n", lines);
    }

    String lastId() {
      return lastId;
    }

    JsonNode next(Duration wait) throws InterruptedException {
      long deadline = System.nanoTime() + wait.toNanos();
      while (events.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(events).as("an event within %s", wait).isNotEmpty();
      return events.get(events.size() - 1);
    }

    boolean awaitEnd(Duration wait) throws InterruptedException {
      return end.await(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
      response.cancel(true);
      response.thenAccept(r -> r.body().close());
    }
  }
}
