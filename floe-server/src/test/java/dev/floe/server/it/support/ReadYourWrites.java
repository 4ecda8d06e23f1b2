package dev.floe.server.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTUtil;

/**
 * Read-your-writes across instances: after a commit is acknowledged, its table is loaded from every
 * instance, and each load that answers 200 must hold the acknowledged snapshot. A load that gets no
 * answer (the instance is down, paused or not ready) is no trial; it is counted as unavailable.
 *
 * <p>Each instance has its own two loading threads, so that a paused instance (whose loads wait for
 * their timeout) neither holds up the writers nor the loads from the other instances. A load may
 * run a little after the acknowledgement; a commit must stay visible, so that changes nothing.
 */
public final class ReadYourWrites {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(3);
  private static final int EXAMPLES = 20;

  /** Trials (loads that answered 200), violations among them, and loads that got no answer. */
  public record Report(long trials, long violations, long unavailable, List<String> examples) {}

  private final List<String> uris;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
  private final AtomicLong trials = new AtomicLong();
  private final AtomicLong violations = new AtomicLong();
  private final AtomicLong unavailable = new AtomicLong();
  private final Queue<String> examples = new ConcurrentLinkedQueue<>();
  private final List<ExecutorService> loaders = new ArrayList<>();

  public ReadYourWrites(List<String> uris) {
    this.uris = List.copyOf(uris);
    for (int i = 0; i < uris.size(); i++) {
      loaders.add(Executors.newFixedThreadPool(2));
    }
  }

  /** Loads {@code table} from every instance and checks that it holds {@code snapshotId}. */
  public void check(TableIdentifier table, long snapshotId) {
    String path =
        "/v1/default/namespaces/"
            + RESTUtil.encodeNamespace(table.namespace())
            + "/tables/"
            + RESTUtil.encodeString(table.name());
    for (int i = 0; i < uris.size(); i++) {
      int instance = i;
      loaders.get(i).execute(() -> load(instance, path, table, snapshotId));
    }
  }

  private void load(int i, String path, TableIdentifier table, long snapshotId) {
    JsonNode snapshots;
    try {
      HttpResponse<InputStream> response =
          http.send(
              HttpRequest.newBuilder(URI.create(uris.get(i) + path)).timeout(TIMEOUT).build(),
              HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream body = response.body()) {
        if (response.statusCode() != 200) {
          unavailable.incrementAndGet();
          return;
        }
        snapshots = JSON.readTree(body).path("metadata").path("snapshots");
      }
    } catch (IOException e) {
      unavailable.incrementAndGet();
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    trials.incrementAndGet();
    if (!holds(snapshots, snapshotId)) {
      violations.incrementAndGet();
      if (examples.size() < EXAMPLES) {
        examples.add(
            "instance " + i + " answered " + table + " without acknowledged " + snapshotId);
      }
    }
  }

  private static boolean holds(JsonNode snapshots, long snapshotId) {
    for (JsonNode snapshot : snapshots) {
      if (snapshot.path("snapshot-id").asLong() == snapshotId) {
        return true;
      }
    }
    return false;
  }

  /** Waits for the loads asked for so far, then answers what they found. */
  public Report report() throws InterruptedException {
    for (ExecutorService loader : loaders) {
      loader.shutdown();
    }
    for (ExecutorService loader : loaders) {
      if (!loader.awaitTermination(5, TimeUnit.MINUTES)) {
        throw new IllegalStateException("read-your-writes loads did not end within 5 minutes");
      }
    }
    return new Report(trials.get(), violations.get(), unavailable.get(), List.copyOf(examples));
  }
}
