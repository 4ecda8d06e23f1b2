package dev.floe.server.it.support;

import java.util.List;
import org.apache.iceberg.rest.RESTCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One harness writer's Iceberg clients, one per instance, used one instance at a time: as an engine
 * behind a load balancer, it goes on with another instance when one fails it, the one the {@link
 * LoadBalancer} in front of the instances picks.
 */
final class InstanceClients implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(InstanceClients.class);

  private final List<String> uris;
  private final ObservedRestClient.ConflictObserver observer;
  private final RESTCatalog[] catalogs;
  private final LoadBalancer balancer;
  private int instance;
  private volatile int failovers;

  /** Starts on instance {@code first} modulo their number. */
  InstanceClients(List<String> uris, int first, ObservedRestClient.ConflictObserver observer) {
    this.uris = uris;
    this.observer = observer;
    this.catalogs = new RESTCatalog[uris.size()];
    this.balancer = LoadBalancer.of(uris);
    this.instance = first % uris.size();
  }

  /** The instance in use. */
  int instance() {
    return instance;
  }

  int failovers() {
    return failovers;
  }

  /**
   * Asks the load balancer where the next request goes; answers whether that is another instance
   * than the one in use (tables loaded through the old one must be loaded again).
   */
  boolean reroute() {
    int routed = balancer.route(instance);
    boolean moved = routed != instance;
    instance = routed;
    return moved;
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
    instance = balancer.failed(instance);
    try {
      Thread.sleep(100);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
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
