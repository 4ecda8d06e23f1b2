package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.CatalogSnapshot;
import dev.floe.server.it.support.HostileBodies;
import dev.floe.server.it.support.HostileRequests;
import dev.floe.server.it.support.HostileRequests.FuzzRequest;
import dev.floe.server.it.support.RawHttp;
import dev.floe.server.it.support.SharedFloe;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sends many generated hostile requests ({@link HostileRequests}) to a running server from several
 * threads and checks that none is answered with a 5xx, that every error answer with a body is the
 * REST spec's ErrorModel with {@code code} equal to the status, and that the catalog afterwards is
 * exactly what it was before: refused requests change nothing.
 *
 * <p>{@code -Dfloe.fuzz.requests=N} (default 10,000; the long run is 100,000), {@code
 * -Dfloe.fuzz.seed=S} (request {@code i} is generated from the seed and {@code i} alone, so a
 * failure names what to replay). The generator cases that found server bugs (null values, names no
 * path can address, NUL in names) stay in as regressions (see {@link HostileBodies}).
 */
class HttpFuzzIT {
  private static final int REQUESTS = Integer.getInteger("floe.fuzz.requests", 10_000);
  private static final long SEED = Long.getLong("floe.fuzz.seed", 20_261_130L);

  /** The cases of bugs this test found, fixed since, run by default; off only to compare. */
  private static final boolean KNOWN_BUGS = !Boolean.getBoolean("floe.fuzz.skip-regressions");

  private static final int THREADS = 8;
  private static final int SHOWN_FAILURES = 40;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String NS = "/v1/default/namespaces";

  @RegisterExtension static final SharedFloe SHARED = SharedFloe.withAuthOff();

  private static FloeProcess floe;
  private static HttpClient http;
  private static String metadataLocation;

  private final Map<String, LongAdder> statuses = new ConcurrentHashMap<>();

  /**
   * Writes answered 2xx: only no-ops may be (an empty commit); the snapshot proves none changed
   * anything.
   */
  private final Map<String, LongAdder> acceptedWrites = new ConcurrentHashMap<>();

  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  private final AtomicInteger failureCount = new AtomicInteger();

  @BeforeAll
  static void startAndSeed() throws Exception {
    floe = SHARED.process();
    http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    created(post(NS, "{\"namespace\":[\"fuzz\"],\"properties\":{\"owner\":\"fuzz\"}}"));
    created(post(NS, "{\"namespace\":[\"fuzz\",\"inner\"]}"));
    created(
        post(
            NS + "/fuzz/tables",
            "{\"name\":\"events\",\"schema\":"
                + HostileBodies.SCHEMA
                + ",\"properties\":{\"owner\":\"fuzz\"}}"));
    created(
        post(
            NS + "/fuzz%1Finner/tables",
            "{\"name\":\"logs\",\"schema\":" + HostileBodies.SCHEMA + "}"));
    metadataLocation =
        JSON.readTree(get(NS + "/fuzz/tables/events").body()).path("metadata-location").asText();
  }

  @Test
  void hostileRequestsAreRefusedWithTheErrorModelAndChangeNothing() throws Exception {
    CatalogSnapshot before = CatalogSnapshot.take(http, floe.uri(), "default");
    assertThat(before.tables()).containsKeys("fuzz.events", "fuzz.inner.logs");
    HostileRequests generator = new HostileRequests(metadataLocation, KNOWN_BUGS);

    long started = System.nanoTime();
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    for (int t = 0; t < THREADS; t++) {
      pool.execute(
          () -> {
            for (int i = next.getAndIncrement(); i < REQUESTS; i = next.getAndIncrement()) {
              FuzzRequest request =
                  generator.generate(new Random(new SplittableRandom(SEED + i).nextLong()));
              check(i, request);
            }
          });
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(2, TimeUnit.HOURS)).isTrue();
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf(
        "HttpFuzzIT: %d requests (seed %d) in %.1f s (%.0f/s) on %d threads; statuses %s; writes"
            + " answered 2xx %s%n",
        REQUESTS,
        SEED,
        seconds,
        REQUESTS / seconds,
        THREADS,
        new TreeMap<>(statuses),
        new TreeMap<>(acceptedWrites));

    assertThat(failures)
        .as(
            "%d of %d requests were answered wrongly (first %d shown)",
            failureCount.get(), REQUESTS, SHOWN_FAILURES)
        .isEmpty();
    assertThat(CatalogSnapshot.take(http, floe.uri(), "default")).isEqualTo(before);
    assertThat(get("/health/ready").statusCode()).isEqualTo(200);
  }

  private void check(int index, FuzzRequest request) {
    Answer answer;
    try {
      answer = send(request);
    } catch (IOException | RuntimeException e) {
      fail(index, request, "no answer: " + e);
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    statuses
        .computeIfAbsent(
            answer.status() < 0 ? "closed" : String.valueOf(answer.status()), k -> new LongAdder())
        .increment();
    if (answer.status() >= 200
        && answer.status() < 300
        && !request.method().equals("GET")
        && !request.head()) {
      String route = request.target().replaceAll("\\?.*", "");
      acceptedWrites
          .computeIfAbsent(request.method() + " " + route, k -> new LongAdder())
          .increment();
    }
    String problem = problem(request, answer);
    if (problem != null) {
      fail(index, request, problem);
    }
  }

  /** What is wrong with an answer, or null: no 5xx, and every error body is the ErrorModel. */
  static String problem(FuzzRequest request, Answer answer) {
    int status = answer.status();
    if (status < 0) {
      return request.mayCloseWithoutAnswer() ? null : "connection closed without an answer";
    }
    if (status >= 500) {
      return "server error " + status + ": " + answer.text();
    }
    if (status < 300 || answer.body().length == 0) {
      return null;
    }
    JsonNode error;
    try {
      error = JSON.readTree(answer.body()).path("error");
    } catch (IOException e) {
      return "status " + status + " with a body that is not JSON: " + answer.text();
    }
    if (!error.isObject()
        || !error.path("code").isInt()
        || error.path("code").asInt() != status
        || !error.path("type").isTextual()
        || error.path("type").asText().isEmpty()
        || !error.path("message").isTextual()) {
      return "status " + status + " without a matching ErrorModel: " + answer.text();
    }
    return null;
  }

  private void fail(int index, FuzzRequest request, String problem) {
    if (failureCount.incrementAndGet() <= SHOWN_FAILURES) {
      failures.add("#" + index + " " + request.describe() + "\n    -> " + problem);
    }
  }

  record Answer(int status, byte[] body) {
    String text() {
      String text = new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8);
      return body.length > 300 ? text + "…" : text;
    }
  }

  static Answer send(FuzzRequest request) throws IOException, InterruptedException {
    if (request.raw() != null) {
      return raw(request.raw(), request.head());
    }
    HttpRequest built;
    try {
      HttpRequest.Builder builder =
          HttpRequest.newBuilder(URI.create(floe.uri() + request.target()))
              .timeout(Duration.ofSeconds(60));
      request.headers().forEach(builder::header);
      built = builder.method(request.method(), publisher(request)).build();
    } catch (IllegalArgumentException e) {
      // java.net.http refuses the URI or the method: send the same request over a socket.
      return raw(rawBytes(request), request.head());
    }
    HttpResponse<byte[]> response = http.send(built, BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), response.body());
  }

  private static BodyPublisher publisher(FuzzRequest request) {
    if (request.body() == null) {
      return BodyPublishers.noBody();
    }
    if (request.chunked()) {
      // No length: sent with Transfer-Encoding: chunked.
      return BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(request.body()));
    }
    return BodyPublishers.ofByteArray(request.body());
  }

  private static Answer raw(byte[] bytes, boolean head) throws IOException {
    RawHttp.Response response = RawHttp.exchange(URI.create(floe.uri()), bytes, head, 60_000);
    return new Answer(response.status(), response.body());
  }

  private static byte[] rawBytes(FuzzRequest request) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StringBuilder head = new StringBuilder();
    head.append(request.method()).append(' ').append(request.target()).append(" HTTP/1.1\r\n");
    head.append("Host: localhost\r\nConnection: close\r\n");
    request.headers().forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
    if (request.body() != null) {
      head.append("Content-Length: ").append(request.body().length).append("\r\n");
    }
    head.append("\r\n");
    out.write(head.toString().getBytes(StandardCharsets.UTF_8));
    if (request.body() != null) {
      out.write(request.body());
    }
    return out.toByteArray();
  }

  private static void created(HttpResponse<String> response) {
    assertThat(response.statusCode()).as("seeding: %s", response.body()).isEqualTo(200);
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(floe.uri() + path)).GET().build(),
        BodyHandlers.ofString());
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(floe.uri() + path))
            .header("Content-Type", "application/json")
            .POST(BodyPublishers.ofString(body))
            .build(),
        BodyHandlers.ofString());
  }
}
