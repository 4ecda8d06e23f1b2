package dev.floe.server.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Server-Sent Events client of {@code GET /v1/{prefix}/events/stream}, reading on a thread of its
 * own: the answer's status and {@code Retry-After}, and for a 200 each {@code data:} line as JSON
 * (an {@code error} event's data too) with the {@code id:} before it.
 */
public final class SseClient implements AutoCloseable {
  private final BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
  private final List<JsonNode> received = new CopyOnWriteArrayList<>();
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final CountDownLatch head = new CountDownLatch(1);
  private final CountDownLatch open = new CountDownLatch(1);
  private final CountDownLatch end = new CountDownLatch(1);
  private final CompletableFuture<HttpResponse<Stream<String>>> response;
  private volatile int status;
  private volatile String retryAfter;
  private volatile String lastId;
  private volatile String pendingId;

  /**
   * @param path the stream's path and query
   * @param lastEventId where to resume, or null
   */
  public SseClient(String server, String path, String token, String lastEventId) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server + path))
            .header("Authorization", "Bearer " + token)
            .header("Accept", "text/event-stream");
    if (lastEventId != null) {
      request.header("Last-Event-ID", lastEventId);
    }
    response =
        HttpClient.newHttpClient().sendAsync(request.build(), HttpResponse.BodyHandlers.ofLines());
    response.thenAccept(
        r -> {
          status = r.statusCode();
          retryAfter = r.headers().firstValue("Retry-After").orElse(null);
          head.countDown();
          r.body().forEach(this::line);
          end.countDown();
        });
  }

  private void line(String line) {
    lines.add(line);
    if (line.startsWith(": events of")) {
      open.countDown();
    } else if (line.startsWith("id: ")) {
      pendingId = line.substring(4);
    } else if (line.startsWith("data: ") && status == 200) {
      try {
        JsonNode event = AuthHttp.JSON.readTree(line.substring(6));
        lastId = pendingId;
        received.add(event);
        events.add(event);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** Waits for the stream's first line: from then on it counts as open on the server. */
  public void awaitOpen() throws InterruptedException {
    assertThat(open.await(10, TimeUnit.SECONDS)).as("the stream opened").isTrue();
  }

  /** The answer's status, once it came (a refused stream's body is read to its end). */
  public int status() throws InterruptedException {
    assertThat(head.await(10, TimeUnit.SECONDS)).as("an answer").isTrue();
    if (status != 200) {
      end.await(5, TimeUnit.SECONDS);
    }
    return status;
  }

  public String retryAfter() {
    return retryAfter;
  }

  /** Every line received, joined: a refused stream's ErrorModel. */
  public String body() {
    return String.join("\n", lines);
  }

  /** The next event not taken yet. */
  public JsonNode next(Duration wait) throws InterruptedException {
    JsonNode event = events.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(event).as("an event within %s", wait).isNotNull();
    return event;
  }

  /** The id of the last event received: a continuation token to resume after it. */
  public String lastId() {
    return lastId;
  }

  public List<JsonNode> received() {
    return received;
  }

  /** Whether the server ended the stream within {@code wait}. */
  public boolean awaitEnd(Duration wait) throws InterruptedException {
    return end.await(wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    response.cancel(true);
    response.thenAccept(r -> r.body().close());
  }
}
