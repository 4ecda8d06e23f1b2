package dev.floe.client;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the Kafka cluster answers: an Admin {@code describeCluster}, cached for {@link #MAX_AGE}
 * so readiness probes (and a burst of them) cost the cluster at most one request per interval.
 * Never blocks the caller.
 */
public final class KafkaReachability implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaReachability.class);

  /** A check result older than this is not trusted: a probe triggers a new one. */
  static final Duration MAX_AGE = Duration.ofSeconds(2);

  /** How long one check may take before the cluster counts as unreachable. */
  static final Duration TIMEOUT = Duration.ofSeconds(2);

  /** The outcome of one check: null problem when the cluster answered. */
  public record Result(long checkedAtNanos, String problem) {
    public boolean reachable() {
      return problem == null;
    }
  }

  private final Admin admin;
  private final AtomicReference<CompletableFuture<Result>> latest = new AtomicReference<>();

  public KafkaReachability(String bootstrapServers) {
    this.admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                AdminClientConfig.CLIENT_ID_CONFIG,
                "floe-health",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                (int) TIMEOUT.toMillis(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                (int) TIMEOUT.toMillis()));
  }

  /** The latest result if fresh, else a new check (shared by every caller while it runs). */
  public CompletionStage<Result> check() {
    while (true) {
      CompletableFuture<Result> current = latest.get();
      if (current != null && (!current.isDone() || fresh(current.join()))) {
        return current;
      }
      CompletableFuture<Result> next = new CompletableFuture<>();
      if (latest.compareAndSet(current, next)) {
        describe(next);
        return next;
      }
    }
  }

  private void describe(CompletableFuture<Result> result) {
    admin
        .describeCluster(new DescribeClusterOptions().timeoutMs((int) TIMEOUT.toMillis()))
        .clusterId()
        .whenComplete(
            (clusterId, error) -> {
              if (error != null) {
                LOG.warn("Kafka is not reachable: {}", error.toString());
              }
              result.complete(
                  new Result(System.nanoTime(), error == null ? null : error.toString()));
            });
  }

  private static boolean fresh(Result result) {
    return System.nanoTime() - result.checkedAtNanos() < MAX_AGE.toNanos();
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }
}
