package dev.floe.server.cli;

import dev.floe.infra.kafka.EmbeddedKafkaBroker;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code floe broker}: runs the embedded broker alone, with its log under {@code <data-dir>/kafka}
 * and its ports in {@code <data-dir>/kafka-ports.properties}, as {@code floe serve} would, until
 * the process is stopped. A fatal broker fault halts this process only, never a catalog instance.
 * With {@code --controller-quorum} it is one node of a cluster.
 */
@Command(
    name = "broker",
    description = {
      "Run only the single-node Kafka broker (KRaft) that floe serve embeds, as its own process,"
          + " until SIGTERM; it keeps its ports across restarts. Point floe serve --kafka at it.",
      "With --controller-quorum it is one node (broker and controller) of a cluster: start one per"
          + " voter, all with the same --cluster-id; with three voters or more, internal topics"
          + " get 3 replicas and writes need 2 in-sync replicas (docs/operations.md)."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  floe broker --data-dir ./floe-broker",
      "  floe broker --node-id 1 --controller-quorum 1@h1:9093,2@h2:9093,3@h3:9093 \\",
      "    --port 9092 --cluster-id MkU3OEVBNTcwNTJENDM2Qk"
    })
final class BrokerCommand implements Callable<Integer> {
  private final Streams streams;

  @Spec CommandSpec spec;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      defaultValue = "./floe-broker",
      description = "where the broker's log and ports are kept (default ${DEFAULT-VALUE})")
  Path dataDir;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      defaultValue = "0",
      description = "the broker's port (default: any free port, kept across restarts)")
  int port;

  @Option(
      names = "--controller-quorum",
      paramLabel = "ID@HOST:PORT,...",
      description = "every voter of the cluster; makes this one node of it")
  String controllerQuorum;

  @Option(
      names = "--node-id",
      paramLabel = "N",
      description = "this node's id in --controller-quorum")
  Integer nodeId;

  @Option(
      names = "--cluster-id",
      paramLabel = "ID",
      description = "the cluster's id, the same on every node (kafka-storage.sh random-uuid)")
  String clusterId;

  @Option(
      names = "--controller-port",
      paramLabel = "C",
      description = "this node's controller port (default: its own in --controller-quorum)")
  Integer controllerPort;

  BrokerCommand(Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() throws InterruptedException {
    EmbeddedKafkaBroker broker = broker();
    broker.start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  broker.close();
                  stopped.countDown();
                },
                "floe-broker-shutdown"));
    streams.out().println("Kafka broker listening on " + broker.bootstrapServers());
    stopped.await();
    return 0;
  }

  private EmbeddedKafkaBroker broker() {
    Path log = dataDir.resolve("kafka");
    if (controllerQuorum == null) {
      if (nodeId != null || clusterId != null || controllerPort != null) {
        throw usage("--node-id, --cluster-id and --controller-port need --controller-quorum");
      }
      return new EmbeddedKafkaBroker(log, port);
    }
    // One node of a cluster: every node runs broker and controller, and all share the quorum.
    if (nodeId == null || clusterId == null || port == 0) {
      throw usage("--controller-quorum needs --node-id, --cluster-id and --port");
    }
    EmbeddedKafkaBroker.ClusterMember member =
        new EmbeddedKafkaBroker.ClusterMember(nodeId, controllerQuorum, clusterId);
    return new EmbeddedKafkaBroker(
        log, port, controllerPort != null ? controllerPort : member.ownControllerPort(), member);
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
