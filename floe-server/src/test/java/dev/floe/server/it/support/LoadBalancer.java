package dev.floe.server.it.support;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The load balancer in front of one set of instances, shared by every harness client that uses
 * them, as engines share the one in front of a catalog: it passes over an instance that failed any
 * client's request in the last {@link #EJECTION_MS} while another has not (a passive health check,
 * outlier ejection), so a frozen instance that timed out one client does not take the others' time
 * too.
 */
final class LoadBalancer {
  static final long EJECTION_MS = 5_000;
  private static final Map<List<String>, LoadBalancer> IN_FRONT_OF = new ConcurrentHashMap<>();

  private final long[] failedAt;

  private LoadBalancer(int instances) {
    failedAt = new long[instances];
    Arrays.fill(failedAt, Long.MIN_VALUE);
  }

  /** The balancer in front of {@code uris}. */
  static LoadBalancer of(List<String> uris) {
    return IN_FRONT_OF.computeIfAbsent(List.copyOf(uris), u -> new LoadBalancer(u.size()));
  }

  /**
   * The instance a request goes to: {@code current}, unless it failed within the ejection time and
   * another has not, then that one.
   */
  synchronized int route(int current) {
    long now = System.nanoTime();
    if (!ejected(current, now)) {
      return current;
    }
    for (int step = 1; step < failedAt.length; step++) {
      int candidate = (current + step) % failedAt.length;
      if (!ejected(candidate, now)) {
        return candidate;
      }
    }
    return current;
  }

  private boolean ejected(int instance, long now) {
    return failedAt[instance] != Long.MIN_VALUE
        && now - failedAt[instance] <= TimeUnit.MILLISECONDS.toNanos(EJECTION_MS);
  }

  /**
   * Records that {@code instance} failed a request; answers the instance to use next: the next one
   * after it that has not failed within the ejection time, or, when every one has, the one that
   * failed longest ago.
   */
  synchronized int failed(int instance) {
    long now = System.nanoTime();
    failedAt[instance] = now;
    int oldest = (instance + 1) % failedAt.length;
    for (int step = 1; step <= failedAt.length; step++) {
      int candidate = (instance + step) % failedAt.length;
      if (!ejected(candidate, now)) {
        return candidate;
      }
      if (failedAt[candidate] < failedAt[oldest]) {
        oldest = candidate;
      }
    }
    return oldest;
  }
}
