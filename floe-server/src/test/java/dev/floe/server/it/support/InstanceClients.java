package dev.floe.server.it.support;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.rest.RESTCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One harness writer's Iceberg clients, one per instance, used one instance at a time: as an engine
 * behind a load balancer, it goes on with the next instance when one fails it. Like a load
 * balancer's passive health check (outlier ejection), an instance that failed a request is passed
 * over for {@link #EJECTION_MS} while another has not failed: a writer does not walk back into a
 * frozen instance and wait out its timeout again.
 */
final class InstanceClients implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(InstanceClients.class);
  static final long EJECTION_MS = 5_000;

  private final List<String> uris;
  private final ObservedRestClient.ConflictObserver observer;
  private final RESTCatalog[] catalogs;
  private final long[] failedAt;
  private int instance;
  private volatile int failovers;

  /** Starts on instance {@code first} modulo their number. */
  InstanceClients(List<String> uris, int first, ObservedRestClient.ConflictObserver observer) {
    this.uris = uris;
    this.observer = observer;
    this.catalogs = new RESTCatalog[uris.size()];
    this.failedAt = new long[uris.size()];
    Arrays.fill(failedAt, Long.MIN_VALUE);
    this.instance = first % uris.size();
  }

  /** The instance in use. */
  int instance() {
    return instance;
  }

  int failovers() {
    return failovers;
  }

  /** The client of the instance in use, connected on first use. */
  RESTCatalog catalog() {
    if (catalogs[instance] == null) {
      catalogs[instance] = HarnessWriter.connect(uris.get(instance), observer);
    }
    return catalogs[instance];
  }

  /**
   * Moves to the next instance after 100 ms; answers false when interrupted meanwhile.
   *
   * @param who names the writer in the log
   */
  boolean failover(String who, RuntimeException cause) {
    LOG.debug("{} fails over from instance {}: {}", who, instance, cause.toString());
    failovers++;
    long now = System.nanoTime();
    failedAt[instance] = now;
    instance = next(now);
    try {
      Thread.sleep(100);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * The next instance after the one in use that has not failed within the ejection time, or, when
   * every one has, the one that failed longest ago.
   */
  private int next(long now) {
    int oldest = (instance + 1) % uris.size();
    for (int step = 1; step <= uris.size(); step++) {
      int candidate = (instance + step) % uris.size();
      if (failedAt[candidate] == Long.MIN_VALUE
          || now - failedAt[candidate] > TimeUnit.MILLISECONDS.toNanos(EJECTION_MS)) {
        return candidate;
      }
      if (failedAt[candidate] < failedAt[oldest]) {
        oldest = candidate;
      }
    }
    return oldest;
  }

  @Override
  public void close() {
    for (RESTCatalog catalog : catalogs) {
      if (catalog == null) {
        continue;
      }
      try {
        catalog.close();
      } catch (Exception e) {
        LOG.debug("Closing a catalog client failed: {}", e.toString());
      }
    }
  }
}
