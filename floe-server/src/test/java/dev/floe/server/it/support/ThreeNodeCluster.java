package dev.floe.server.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.infra.testing.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

/**
 * A production-shaped cluster on this machine: three Kafka nodes ({@code floe broker --node-id ...
 * --controller-quorum ...}, each its own process, each broker and KRaft controller; replication
 * factor 3, two in-sync replicas) and {@code floe serve} instances on it (two unless told) with
 * warm standbys, sharing one warehouse directory. Nodes are numbered 1 to 3 (their KRaft node ids),
 * instances from 0. Any node or instance can be SIGKILLed, paused (SIGSTOP) and resumed, and
 * restarted on its data directory and ports.
 */
public final class ThreeNodeCluster implements FaultTarget, AutoCloseable {
  private static final int NODES = 3;

  private final Path root;
  private final int[] ports = new int[NODES];
  private final int[] controllerPorts = new int[NODES];
  private final String quorum;
  private final String bootstrap;
  private final String clusterId = Uuid.randomUuid().toString();
  private final Process[] brokers = new Process[NODES];
  private final boolean[] launched = new boolean[NODES];
  private final List<FloeProcess> instances = new ArrayList<>();
  private final int instanceCount;
  private final Map<String, String> instanceProperties;
  private Admin admin;

  public ThreeNodeCluster(Path root) {
    this(root, 2, Map.of());
  }

  /**
   * @param instanceProperties further configuration for every instance (README.md's keys)
   */
  public ThreeNodeCluster(Path root, int instanceCount, Map<String, String> instanceProperties) {
    this.root = root;
    this.instanceCount = instanceCount;
    this.instanceProperties = Map.copyOf(instanceProperties);
    List<String> voters = new ArrayList<>();
    List<String> addresses = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      ports[i] = FreePorts.next();
      controllerPorts[i] = FreePorts.next();
      voters.add((i + 1) + "@localhost:" + controllerPorts[i]);
      addresses.add("localhost:" + ports[i]);
    }
    this.quorum = String.join(",", voters);
    this.bootstrap = String.join(",", addresses);
  }

  /** Starts the three nodes, waits for them, then starts the instances one after the other. */
  public ThreeNodeCluster start() throws InterruptedException {
    for (int node = 1; node <= NODES; node++) {
      startBroker(node);
    }
    admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000));
    awaitBrokers(NODES, Duration.ofSeconds(120));
    Map<String, String> properties = new HashMap<>(instanceProperties);
    properties.put("floe.kafka.bootstrap-servers", bootstrap);
    properties.put("floe.kafka.replication-factor", "3");
    properties.put("floe.streams.standby-replicas", "1");
    properties.put(
        "floe.warehouse.default.location",
        root.resolve("lake").toAbsolutePath().toUri().toString().replaceAll("/$", ""));
    for (int i = 0; i < instanceCount; i++) {
      instances.add(new FloeProcess(root.resolve("floe-" + (char) ('a' + i)), properties).start());
    }
    return this;
  }

  public String bootstrap() {
    return bootstrap;
  }

  @Override
  public String bootstrapServers() {
    return bootstrap;
  }

  public Admin admin() {
    return admin;
  }

  /** Instance {@code index}, from 0. */
  public FloeProcess instance(int index) {
    return instances.get(index);
  }

  @Override
  public List<String> uris() {
    return instances.stream().map(FloeProcess::uri).toList();
  }

  /** Starts node {@code node} (1-3) on its data directory and ports; a restart appends its log. */
  public void startBroker(int node) {
    int i = node - 1;
    brokers[i] =
        FloeProcess.launch(
            "512m",
            List.of(
                "broker",
                "--data-dir",
                root.resolve("broker-" + node).toString(),
                "--node-id",
                String.valueOf(node),
                "--controller-quorum",
                quorum,
                "--port",
                String.valueOf(ports[i]),
                "--controller-port",
                String.valueOf(controllerPorts[i]),
                "--cluster-id",
                clusterId),
            Path.of("target", "it-logs", "three-broker-" + node + ".log"),
            launched[i]);
    launched[i] = true;
  }

  /** SIGKILL of node {@code node}. */
  public void killBroker(int node) throws InterruptedException {
    brokers[node - 1].destroyForcibly();
    brokers[node - 1].waitFor(30, TimeUnit.SECONDS);
  }

  public long brokerPid(int node) {
    return brokers[node - 1].pid();
  }

  /** Sends {@code signal} (STOP, CONT, ...) to process {@code pid} with kill(1). */
  public static void signal(long pid, String signal) throws InterruptedException {
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The node leading {@code topic}'s partition {@code partition}. */
  public int leaderOf(String topic, int partition) throws Exception {
    return describe(topic).partitions().get(partition).leader().id();
  }

  /** The nodes leading at least one partition of {@code topic}. */
  public Set<Integer> leadersOf(String topic) throws Exception {
    Set<Integer> leaders = new TreeSet<>();
    for (TopicPartitionInfo partition : describe(topic).partitions()) {
      Node leader = partition.leader();
      if (leader != null) {
        leaders.add(leader.id());
      }
    }
    return leaders;
  }

  /** The active KRaft controller: the metadata quorum's leader. */
  public int activeController() throws Exception {
    return admin.describeMetadataQuorum().quorumInfo().get(10, TimeUnit.SECONDS).leaderId();
  }

  private TopicDescription describe(String topic) throws Exception {
    return admin
        .describeTopics(List.of(topic))
        .allTopicNames()
        .get(10, TimeUnit.SECONDS)
        .get(topic);
  }

  /** Waits until the cluster reports {@code count} brokers (live, unfenced). */
  public void awaitBrokers(int count, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      for (Process broker : brokers) {
        if (broker != null && !broker.isAlive()) {
          throw new IllegalStateException(
              "a broker exited with " + broker.exitValue() + "; see target/it-logs/three-broker-*");
        }
      }
      try {
        if (admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() == count) {
          return;
        }
      } catch (Exception e) {
        // not answering yet
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("the cluster did not have " + count + " brokers in " + within);
  }

  /** Waits until every partition of every topic (internal ones too) has all three in sync. */
  public void awaitFullIsr(Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      try {
        Set<String> names =
            admin
                .listTopics(new ListTopicsOptions().listInternal(true))
                .names()
                .get(10, TimeUnit.SECONDS);
        List<String> lagging = new ArrayList<>();
        admin
            .describeTopics(names)
            .allTopicNames()
            .get(10, TimeUnit.SECONDS)
            .forEach(
                (topic, description) -> {
                  for (TopicPartitionInfo partition : description.partitions()) {
                    if (partition.isr().size() < NODES) {
                      lagging.add(topic + "-" + partition.partition() + " " + partition.isr());
                    }
                  }
                });
        if (lagging.isEmpty()) {
          return;
        }
        last = lagging.size() + " partitions short, e.g. " + lagging.get(0);
      } catch (Exception e) {
        last = e.toString();
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("replicas not all in sync within " + within + ": " + last);
  }

  /**
   * Floe's topics, Kafka Streams' changelogs and Kafka's own (consumer offsets, transaction state):
   * three replicas of every partition, and two in-sync replicas for a write.
   */
  public void assertEveryTopicReplicatedThriceWithTwoInSync() throws Exception {
    Set<String> names =
        admin
            .listTopics(new ListTopicsOptions().listInternal(true))
            .names()
            .get(10, TimeUnit.SECONDS);
    assertThat(names)
        .contains("floe.commands", "floe.events", "__consumer_offsets", "__transaction_state")
        .anyMatch(name -> name.endsWith("-changelog"));
    Map<String, TopicDescription> descriptions =
        admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS);
    descriptions.forEach(
        (topic, description) -> {
          for (TopicPartitionInfo partition : description.partitions()) {
            assertThat(partition.replicas()).as("%s replicas", topic).hasSize(NODES);
          }
        });
    List<ConfigResource> resources =
        names.stream().map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).toList();
    admin
        .describeConfigs(resources)
        .all()
        .get(10, TimeUnit.SECONDS)
        .forEach(
            (resource, config) ->
                assertThat(config.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value())
                    .as("%s min.insync.replicas", resource.name())
                    .isEqualTo("2"));
  }

  @Override
  public void close() throws InterruptedException {
    if (admin != null) {
      admin.close(Duration.ofSeconds(5));
    }
    for (FloeProcess instance : instances) {
      if (instance.isAlive()) {
        signalQuietly(instance.pid());
      }
      instance.close();
    }
    for (Process broker : brokers) {
      if (broker != null && broker.isAlive()) {
        signalQuietly(broker.pid());
        broker.destroyForcibly();
        broker.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  /** A paused process still dies of SIGKILL; resume it anyway, in case a test failed mid-pause. */
  private static void signalQuietly(long pid) {
    try {
      signal(pid, "CONT");
    } catch (Exception e) {
      // gone already
    }
  }
}
