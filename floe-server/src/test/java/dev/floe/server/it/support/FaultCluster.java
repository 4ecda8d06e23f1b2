package dev.floe.server.it.support;

import dev.floe.infra.testing.FloeProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A Kafka broker and N Floe instances, each its own process on this machine, every instance on that
 * broker ({@code floe.kafka.bootstrap-servers}) and on one shared warehouse directory, as N
 * machines would share a cluster and an object store.
 */
public final class FaultCluster implements FaultTarget, AutoCloseable {
  private final BrokerProcess broker;
  private final List<FloeProcess> instances = new ArrayList<>();

  /**
   * @param properties further configuration for every instance (README.md's keys)
   */
  public FaultCluster(Path root, int instanceCount, Map<String, String> properties) {
    this.broker = new BrokerProcess(root.resolve("fault-broker"));
    Map<String, String> shared = new HashMap<>(properties);
    shared.put("floe.kafka.bootstrap-servers", broker.bootstrapServers());
    shared.put(
        "floe.warehouse.default.location",
        root.resolve("warehouse").toAbsolutePath().toUri().toString().replaceAll("/$", ""));
    for (int i = 0; i < instanceCount; i++) {
      instances.add(new FloeProcess(root.resolve("fault-floe-" + (i + 1)), Map.copyOf(shared)));
    }
  }

  /** Starts the broker, then the instances one after the other (the first creates the topics). */
  public FaultCluster start() {
    broker.start();
    for (FloeProcess instance : instances) {
      instance.start();
    }
    return this;
  }

  public BrokerProcess broker() {
    return broker;
  }

  @Override
  public String bootstrapServers() {
    return broker.bootstrapServers();
  }

  public FloeProcess instance(int index) {
    return instances.get(index);
  }

  @Override
  public List<String> uris() {
    return instances.stream().map(FloeProcess::uri).toList();
  }

  @Override
  public void close() throws InterruptedException {
    for (FloeProcess instance : instances) {
      instance.close();
    }
    broker.close();
  }
}
