package dev.floe.api.http;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * A Prometheus histogram of durations in seconds: cumulative {@code _bucket{le=…}} counts, {@code
 * _sum} and {@code _count}. Lock-free; a scrape may see a bucket a moment ahead of the count.
 */
final class LatencyHistogram {
  /** Upper bounds in seconds: reads take milliseconds, commits tens of them, timeouts 30 s. */
  static final double[] BOUNDS = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30
  };

  private final LongAdder[] buckets = new LongAdder[BOUNDS.length];
  private final LongAdder count = new LongAdder();
  private final DoubleAdder sum = new DoubleAdder();

  LatencyHistogram() {
    for (int i = 0; i < buckets.length; i++) {
      buckets[i] = new LongAdder();
    }
  }

  void observe(double seconds) {
    for (int i = 0; i < BOUNDS.length; i++) {
      if (seconds <= BOUNDS[i]) {
        buckets[i].increment();
        break;
      }
    }
    count.increment();
    sum.add(seconds);
  }

  long count() {
    return count.sum();
  }

  /** Appends this histogram's lines; {@code labels} is empty or {@code a="x",b="y"}. */
  void render(StringBuilder text, String name, String labels) {
    String prefix = labels.isEmpty() ? "" : labels + ",";
    long cumulative = 0;
    for (int i = 0; i < BOUNDS.length; i++) {
      cumulative += buckets[i].sum();
      text.append(name)
          .append("_bucket{")
          .append(prefix)
          .append("le=\"")
          .append(BOUNDS[i])
          .append("\"} ")
          .append(cumulative)
          .append('\n');
    }
    long total = Math.max(cumulative, count.sum());
    text.append(name)
        .append("_bucket{")
        .append(prefix)
        .append("le=\"+Inf\"} ")
        .append(total)
        .append('\n');
    String braces = labels.isEmpty() ? "" : "{" + labels + "}";
    text.append(name).append("_sum").append(braces).append(' ').append(sum.sum()).append('\n');
    text.append(name).append("_count").append(braces).append(' ').append(total).append('\n');
  }
}
