package dev.floe.api.http;

import java.util.HashMap;
import java.util.Map;

/**
 * The event streams open on this instance, against two caps: per principal ({@code
 * floe.events.stream.max-per-principal}) and in all ({@code floe.events.stream.max}, below {@code
 * floe.http.max-connections}), so that one reader cannot hold the connections every other caller
 * and {@code /health/*} need.
 */
final class StreamSlots {
  private final int max;
  private final int perPrincipal;
  private final Map<String, Integer> byPrincipal = new HashMap<>();
  private int open;

  StreamSlots(int max, int perPrincipal) {
    this.max = max;
    this.perPrincipal = perPrincipal;
  }

  /**
   * A slot for one more stream of {@code principal}, released by the returned action (once; more
   * calls do nothing); 429 when a cap is reached.
   */
  synchronized Runnable acquire(String principal) {
    int own = byPrincipal.getOrDefault(principal, 0);
    if (own >= perPrincipal) {
      throw new ApiException(
          ErrorType.TOO_MANY_REQUESTS,
          String.format(
              "%s has %d event streams open on this instance, the most one principal may: close"
                  + " one, or retry later",
              principal, own));
    }
    if (open >= max) {
      throw new ApiException(
          ErrorType.TOO_MANY_REQUESTS,
          "This instance serves as many event streams as it may: retry later");
    }
    open++;
    byPrincipal.put(principal, own + 1);
    boolean[] released = {false};
    return () -> release(principal, released);
  }

  private synchronized void release(String principal, boolean[] released) {
    if (released[0]) {
      return;
    }
    released[0] = true;
    open--;
    byPrincipal.computeIfPresent(principal, (p, n) -> n <= 1 ? null : n - 1);
  }
}
