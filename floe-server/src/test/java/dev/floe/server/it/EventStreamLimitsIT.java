package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.SseClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    List<SseClient> streams = new ArrayList<>();
    try {
      streams.add(open(narrow, null));
      streams.add(open(narrow, null));
      SseClient refused = open(narrow, null);
      assertThat(refused.status()).as("a third stream of one principal").isEqualTo(429);
      assertThat(refused.retryAfter()).isNotNull();
      assertThat(refused.body()).contains("\"type\":\"TooManyRequestsException\"", "narrow");

      streams.add(open(other, null));
      SseClient full = open(third, null);
      assertThat(full.status()).as("a fourth stream on the instance").isEqualTo(429);
      assertThat(AuthHttp.send(floe.uri(), "GET", "/health/ready", null, null).status())
          .isEqualTo(200);
      assertThat(AuthHttp.send(floe.uri(), "GET", "/v1/default/namespaces", admin, null).status())
          .isEqualTo(200);

      streams.remove(0).close();
      SseClient freed = openWithin(third, Duration.ofSeconds(5));
      streams.add(freed);
      assertThat(freed.status()).as("a closed stream frees its slot").isEqualTo(200);
    } finally {
      streams.forEach(SseClient::close);
    }
  }

  @Test
  void aStreamEndsAfterItsLifetimeAndResumesWhereItWas() throws Exception {
    String reader = reader("lasting");
    SseClient first = open(reader, null);
    assertThat(first.status()).isEqualTo(200);
    commit("a");
    JsonNode seen = first.next(Duration.ofSeconds(5));
    assertThat(first.awaitEnd(Duration.ofSeconds(20))).as("the server ended it").isTrue();
    commit("b");

    SseClient resumed = open(reader, first.lastId());
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

  /** A stream; once it is answered 200, open on the server (its first line is out). */
  private static SseClient open(String token, String lastEventId) throws InterruptedException {
    SseClient stream = new SseClient(floe.uri(), STREAM, token, lastEventId);
    if (stream.status() == 200) {
      stream.awaitOpen();
    }
    return stream;
  }

  /** Opens until a slot is free (a closed stream's slot frees as the server sees it go). */
  private static SseClient openWithin(String token, Duration wait) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      SseClient stream = open(token, null);
      if (stream.status() == 200 || System.nanoTime() > deadline) {
        return stream;
      }
      stream.close();
      Thread.sleep(200);
    }
  }
}
