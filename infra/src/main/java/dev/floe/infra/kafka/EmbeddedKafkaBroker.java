package dev.floe.infra.kafka;

import dev.floe.events.RecordLimits;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Apache Kafka broker (KRaft, combined broker and controller) running inside
 * this process, with its log under {@code <dataDir>/kafka}, so the catalog's state survives a
 * restart. Wraps Kafka's internal {@link KafkaRaftServer} and {@link Formatter}; nothing else in
 * Floe touches them.
 *
 * <p>A fatal broker fault makes Kafka call {@code Exit.halt}, which ends the whole JVM: the
 * embedded mode is for one-process deployments where the process supervisor restarts Floe.
 * Production deployments point {@code --kafka} at a cluster.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
  private static final String CONTROLLER = "CONTROLLER";

  private final Path logDir;
  private final int port;
  private final int controllerPort;

  /**
   * How long the broker waits before it retries adding a partition to a transaction whose previous
   * transaction is still writing its commit markers (Kafka's default: 20 ms). The processor starts
   * its next transaction as soon as the last one is committed, so under load nearly every
   * transaction met the previous one's markers and waited 20 ms, doubling the time of concurrent
   * commits (bench/notes.md); the markers take about a millisecond here.
   */
  public static final String ADD_PARTITIONS_BACKOFF = "add.partitions.to.txn.retry.backoff.ms";

  /** Floe's value of {@link #ADD_PARTITIONS_BACKOFF}. */
  public static final int ADD_PARTITIONS_BACKOFF_MS = 1;

  private final Map<String, String> overrides;
  private final ClusterMember member;
  private KafkaRaftServer server;

  /**
   * This node's place in a cluster of combined broker-and-controller nodes: its id, every voter of
   * the controller quorum ({@code 1@host:port,2@host:port,...}) and the cluster id all of them
   * format their storage with. With three voters or more, Kafka's internal topics are replicated
   * three times and every write needs two in-sync replicas ({@link #replicationSettings}).
   */
  public record ClusterMember(int nodeId, String quorumVoters, String clusterId) {
    public ClusterMember {
      if (nodeId < 0) {
        throw new IllegalArgumentException("node id must not be negative: " + nodeId);
      }
      if (quorumVoters == null || quorumVoters.isBlank()) {
        throw new IllegalArgumentException("the controller quorum is required");
      }
      if (clusterId == null || clusterId.isBlank()) {
        throw new IllegalArgumentException("the cluster id is required");
      }
    }

    public int voters() {
      return quorumVoters.split(",").length;
    }

    /** The controller port of this node's entry in the quorum, or -1 when it is not a voter. */
    public int ownControllerPort() {
      for (String voter : quorumVoters.split(",")) {
        String[] idAndAddress = voter.trim().split("@", 2);
        if (idAndAddress.length == 2 && Integer.parseInt(idAndAddress[0]) == nodeId) {
          String address = idAndAddress[1];
          return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        }
      }
      return -1;
    }
  }

  /**
   * @param port the client port, or 0 to pick a free one on first start and keep it afterwards
   */
  public EmbeddedKafkaBroker(Path logDir, int port) {
    this(logDir, port, Map.of());
  }

  /**
   * @param overrides broker settings that replace Floe's (tests that need a broker that misbehaves)
   */
  public EmbeddedKafkaBroker(Path logDir, int port, Map<String, String> overrides) {
    this.logDir = logDir;
    this.overrides = Map.copyOf(overrides);
    this.member = null;
    Properties ports = loadPorts(logDir, port);
    this.port = Integer.parseInt(ports.getProperty("port"));
    this.controllerPort = Integer.parseInt(ports.getProperty("controller.port"));
  }

  /**
   * One node of a multi-node cluster: fixed ports (the other nodes and the clients know them), and
   * storage formatted with the cluster's id.
   *
   * @param controllerPort this node's controller port, which its entry in the quorum must name
   */
  public EmbeddedKafkaBroker(Path logDir, int port, int controllerPort, ClusterMember member) {
    if (port <= 0 || controllerPort <= 0) {
      throw new IllegalArgumentException("a cluster node needs fixed client and controller ports");
    }
    if (member.ownControllerPort() != controllerPort) {
      throw new IllegalArgumentException(
          "node "
              + member.nodeId()
              + " with controller port "
              + controllerPort
              + " is not in the controller quorum "
              + member.quorumVoters());
    }
    this.logDir = logDir;
    this.overrides = Map.of();
    this.member = member;
    this.port = port;
    this.controllerPort = controllerPort;
  }

  /**
   * The broker keeps its ports across restarts: its KRaft log records its endpoints and the
   * controller's address, and a transaction coordinator that still knew the old port would send its
   * markers there until the broker re-registered. A port given in the configuration replaces the
   * recorded one, and is recorded: the command-line tools find the broker through this file.
   *
   * @param port the configured client port, or 0 for the recorded (or a free) one
   */
  private static Properties loadPorts(Path logDir, int port) {
    Path file = logDir.resolveSibling("kafka-ports.properties");
    Properties ports = new Properties();
    try {
      if (Files.exists(file)) {
        try (var in = Files.newInputStream(file)) {
          ports.load(in);
        }
        if (port == 0 || String.valueOf(port).equals(ports.getProperty("port"))) {
          return ports;
        }
      } else {
        Files.createDirectories(logDir.getParent());
        ports.setProperty("controller.port", String.valueOf(freePort()));
      }
      ports.setProperty("port", String.valueOf(port != 0 ? port : freePort()));
      try (var out = Files.newOutputStream(file)) {
        ports.store(out, "Ports of Floe's embedded Kafka broker, kept across restarts");
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read or write " + file, e);
    }
  }

  public String bootstrapServers() {
    return "localhost:" + port;
  }

  public synchronized void start() {
    long started = System.nanoTime();
    KafkaConfig config = KafkaConfig.fromProps(brokerProperties(), false);
    format(config);
    server = new KafkaRaftServer(config, Time.SYSTEM);
    server.startup();
    LOG.info(
        "Embedded Kafka broker started on {} in {} ms (log {})",
        bootstrapServers(),
        (System.nanoTime() - started) / 1_000_000,
        logDir);
  }

  private Properties brokerProperties() {
    Properties props = new Properties();
    props.put("process.roles", "broker,controller");
    props.put("node.id", member == null ? "1" : String.valueOf(member.nodeId()));
    props.put(
        "controller.quorum.voters",
        member == null ? "1@localhost:" + controllerPort : member.quorumVoters());
    props.put(
        "listeners",
        "PLAINTEXT://localhost:" + port + "," + CONTROLLER + "://localhost:" + controllerPort);
    props.put("advertised.listeners", "PLAINTEXT://localhost:" + port);
    props.put("controller.listener.names", CONTROLLER);
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER + ":PLAINTEXT");
    props.put("log.dirs", logDir.toString());
    props.put("auto.create.topics.enable", "false");
    props.put("message.max.bytes", String.valueOf(RecordLimits.MAX_REQUEST_BYTES));
    props.put("replica.fetch.max.bytes", String.valueOf(RecordLimits.MAX_REQUEST_BYTES));
    props.put("offsets.topic.replication.factor", "1");
    props.put("offsets.topic.num.partitions", "4");
    // Exactly-once commits write an offset commit per transaction: with the default 100 MiB
    // segments __consumer_offsets stays one uncompacted segment of ~150,000 records, all of which
    // a restarted broker loads before its group coordinator answers. Smaller segments let the
    // cleaner compact them (applies when the topic is created).
    props.put("offsets.topic.segment.bytes", String.valueOf(8 * 1024 * 1024));
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("transaction.state.log.num.partitions", "4");
    props.put("group.initial.rebalance.delay.ms", "0");
    props.put("share.coordinator.state.topic.replication.factor", "1");
    props.put("share.coordinator.state.topic.min.isr", "1");
    // 4 MiB instead of 128 MiB: halves the broker's resident memory, measured on a 2-core machine.
    props.put("log.cleaner.dedupe.buffer.size", String.valueOf(4 * 1024 * 1024));
    // After a crash the controller fences the dead incarnation only when its session expires
    // (default 9 s); with a single broker there is no one to fail over to, so expire it fast.
    props.put("broker.session.timeout.ms", "3000");
    props.put("broker.heartbeat.interval.ms", "1000");
    // The transaction coordinator aborts a transaction past its timeout only when it looks, every
    // 10 s by default; a dead instance's open transaction holds back every read_committed reader of
    // the partitions it wrote until then. Look every second.
    props.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
    // Let Floe's instances choose a Kafka Streams session down to 2 s
    // (floe.streams.session-timeout;
    // Kafka's floor is 6 s): the session is how long a dead or frozen instance keeps its
    // partitions.
    props.put("group.min.session.timeout.ms", "2000");
    props.put("num.network.threads", "2");
    props.put("num.io.threads", "4");
    props.put(ADD_PARTITIONS_BACKOFF, String.valueOf(ADD_PARTITIONS_BACKOFF_MS));
    if (member != null) {
      props.putAll(replicationSettings(member.voters()));
      props.putAll(FAILOVER);
    } else {
      // The active controller appends a no-op record to the metadata log every 500 ms by default
      // (Kafka's measure of a quorum's health, KIP-835), each one written and flushed, then applied
      // by the broker: the largest part of an idle single node's own work. Alone, it has no quorum
      // to watch.
      props.put("metadata.max.idle.interval.ms", "10000");
    }
    props.putAll(overrides);
    return props;
  }

  /**
   * How fast a node of a cluster notices a failed one. A dead or frozen broker is fenced, and its
   * partitions get new leaders, when its session ends (2 s, heartbeats every 500 ms); until then a
   * frozen follower holds every {@code acks=all} write of the partitions it follows, the group
   * coordinator's heartbeat answers among them, so this must stay well below the instances' 3 s
   * session. A dead active controller is replaced once its followers miss it for the quorum's fetch
   * timeout (1 s) and an election (0.5 s). The brokers' own requests to each other (the transaction
   * coordinator's commit markers among them) give up after 3 s instead of Kafka's 30: a marker sent
   * to a broker that froze before it was fenced would otherwise hold its transaction, and every
   * {@code read_committed} reader behind it, until the broker came back.
   */
  static final Map<String, String> FAILOVER =
      Map.of(
          "broker.session.timeout.ms", "2000",
          "broker.heartbeat.interval.ms", "500",
          "controller.quorum.fetch.timeout.ms", "1000",
          "controller.quorum.election.timeout.ms", "500",
          "controller.quorum.election.backoff.max.ms", "500",
          "request.timeout.ms", "3000");

  /**
   * The replication of a cluster of {@code nodes} brokers: three copies of every internal topic
   * (consumer offsets, transaction state) and of topics created without a factor, and two in-sync
   * replicas for an acknowledged write ({@code acks=all}), so one broker may fail without losing an
   * acknowledged record or stopping writes. Fewer than three nodes replicate to every node and need
   * one in-sync replica.
   */
  static Map<String, String> replicationSettings(int nodes) {
    String factor = String.valueOf(Math.min(3, nodes));
    String minIsr = nodes >= 3 ? "2" : "1";
    return Map.of(
        "offsets.topic.replication.factor", factor,
        "transaction.state.log.replication.factor", factor,
        "transaction.state.log.min.isr", minIsr,
        "share.coordinator.state.topic.replication.factor", factor,
        "share.coordinator.state.topic.min.isr", minIsr,
        "default.replication.factor", factor,
        "min.insync.replicas", minIsr,
        "unclean.leader.election.enable", "false");
  }

  /** Formats the log directory on first start; later starts reuse its {@code meta.properties}. */
  private void format(KafkaConfig config) {
    if (Files.exists(logDir.resolve("meta.properties"))) {
      return;
    }
    try {
      Files.createDirectories(logDir);
      Formatter formatter =
          new Formatter()
              .setClusterId(member == null ? Uuid.randomUuid().toString() : member.clusterId())
              .setNodeId(config.nodeId())
              .setControllerListenerName(CONTROLLER)
              .setMetadataLogDirectory(logDir.toString())
              .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
              .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
              .addDirectory(logDir.toString());
      formatter.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot format the Kafka log directory " + logDir, e);
    }
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      server.shutdown();
      server.awaitShutdown();
      server = null;
      LOG.info("Embedded Kafka broker stopped");
    }
  }

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
