package dev.floe.server.it.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The load balancer in front of one set of instances, shared by every harness client that uses
 * them, as engines share the one in front of a catalog. Like a load balancer's active health check
 * it asks every instance's {@code /health/live} every {@link #PROBE_MS} and counts an instance
 * down while it does not answer within {@link #PROBE_TIMEOUT_MS} (dead, or frozen: a frozen
 * instance accepts connections and answers nothing); a client is routed to an instance that is up,
 * and a failed request moves it to the next one that is up. An instance that answers, even 503
 * while it rebalances, is up: the client's retry goes there again.
 */
final class LoadBalancer {
  static final long PROBE_MS = 250;
  static final long PROBE_TIMEOUT_MS = 1_000;
  private static final Map<List<String>, LoadBalancer> IN_FRONT_OF = new ConcurrentHashMap<>();

  private final AtomicIntegerArray up;

  private LoadBalancer(List<String> uris) {
    up = new AtomicIntegerArray(uris.size());
    HttpClient http =
        HttpClient.newBuilder().connectTimeout(Duration.ofMillis(PROBE_TIMEOUT_MS)).build();
    for (int i = 0; i < uris.size(); i++) {
      up.set(i, 1);
      int instance = i;
      URI live = URI.create(uris.get(i) + "/health/live");
      Thread probe =
          new Thread(() -> probe(http, live, instance), "load-balancer-probe-" + instance);
      probe.setDaemon(true);
      probe.start();
    }
  }

  /** The balancer in front of {@code uris}. */
  static LoadBalancer of(List<String> uris) {
    return IN_FRONT_OF.computeIfAbsent(List.copyOf(uris), LoadBalancer::new);
  }

  private void probe(HttpClient http, URI live, int instance) {
    HttpRequest request =
        HttpRequest.newBuilder(live).timeout(Duration.ofMillis(PROBE_TIMEOUT_MS)).build();
    while (true) {
      boolean answered;
      try {
        http.send(request, HttpResponse.BodyHandlers.discarding());
        answered = true;
      } catch (IOException e) {
        answered = false;
      } catch (InterruptedException e) {
        return;
      }
      up.set(instance, answered ? 1 : 0);
      try {
        Thread.sleep(PROBE_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** The instance a request goes to: {@code current} while it is up, else the next one that is. */
  int route(int current) {
    return up.get(current) == 1 ? current : next(current);
  }

  /** The instance to use after {@code instance} failed a request: the next one up after it. */
  int failed(int instance) {
    return next(instance);
  }

  /** The next instance after {@code instance} that is up, or simply the next when none is. */
  private int next(int instance) {
    int count = up.length();
    for (int step = 1; step < count; step++) {
      int candidate = (instance + step) % count;
      if (up.get(candidate) == 1) {
        return candidate;
      }
    }
    return (instance + 1) % count;
  }
}
