package dev.floe.server;

import dev.floe.infra.config.FloeConfig;
import dev.floe.infra.kafka.EmbeddedKafkaBroker;
import dev.floe.server.cli.DeletedCommand;
import dev.floe.server.cli.LatencyProbe;
import dev.floe.server.cli.ManageCommand;
import dev.floe.server.cli.ReplayCommand;
import dev.floe.server.cli.TailCommand;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/** The {@code floe} command line. */
public final class Main {
  private static final String USAGE =
      """
Usage: floe serve [--port 8181] [--host 0.0.0.0] [--data-dir ./floe-data]
                  [--kafka host:port,...] [--config floe.properties] [--auth none]
       floe latency [--url http://localhost:8181] [--warehouse default] [--count 500] [--token T]
       floe replay [--data-dir ./floe-data | --kafka host:port,...] [--url http://localhost:8181]
                   [--out DIR] [--no-compare] [--until <time|offset>]
       floe events tail [...]   floe audit tail [...]   (see README.md)
       floe broker [--data-dir ./floe-broker] [--port 0]
       floe broker --node-id N --controller-quorum 1@host:C1,2@host:C2,3@host:C3 --port P
                   --cluster-id ID [--controller-port C] [--data-dir ./floe-broker]
       floe principals|tokens|grants|visibility ...   (floe principals help)
       floe deleted list|restore|expunge --warehouse W ...   (floe deleted help)
       floe bench --target NAME=URI[,WAREHOUSE[,token-file=PATH]] ...   (floe bench --help)

  --port       HTTP port of the Iceberg REST catalog (default 8181)
  --host       address to listen on (default 0.0.0.0)
  --data-dir   where the embedded broker, the stores and the default warehouse live
  --kafka      use this Kafka cluster instead of starting an embedded broker
  --config     a properties file; see README.md for every key
  --auth none  turn authentication off: every request is an unrestricted 'anonymous' (local
               experiments only; the default is bearer tokens)

floe latency measures sequential commit and load round trips against a running catalog.
floe deleted lists, restores and expunges the dropped tables, views and namespaces a warehouse
  keeps for its recovery period.
floe replay rebuilds the catalog from floe.events and compares it with the live one.
floe bench measures Iceberg REST catalogs side by side (bin/floe runs the bench module;
  docs/benchmarks.md).
floe broker runs only the single-node Kafka broker (KRaft) that floe serve embeds, as its own
  process, until SIGTERM; it keeps its ports across restarts. Point floe serve --kafka at it
  (the fault harness, bench/fault-harness.sh, runs it so it can kill it separately).
  With --controller-quorum it is one node (broker and controller) of a cluster: start one per
  voter, all with the same --cluster-id (any Kafka cluster id, e.g. from kafka-storage.sh
  random-uuid); with three voters or more, internal topics get 3 replicas and writes need 2
  in-sync replicas (docs/operations.md, "A production cluster").
""";

  private Main() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && ("events".equals(args[0]) || "audit".equals(args[0]))) {
      System.exit(TailCommand.run(args[0], Arrays.copyOfRange(args, 1, args.length), System.out));
      return;
    }
    if (args.length > 0
        && Set.of("principals", "tokens", "grants", "visibility").contains(args[0])) {
      System.exit(
          ManageCommand.run(
              args[0], Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
      return;
    }
    if (args.length > 0 && "deleted".equals(args[0])) {
      System.exit(
          DeletedCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
      return;
    }
    if (args.length > 0 && "replay".equals(args[0])) {
      System.exit(ReplayCommand.run(args, System.out, System.err));
      return;
    }
    if (args.length > 0 && "latency".equals(args[0])) {
      Map<String, String> flags = flags(args);
      LatencyProbe.run(
          flags.getOrDefault("--url", "http://localhost:8181"),
          flags.getOrDefault("--warehouse", "default"),
          Integer.parseInt(flags.getOrDefault("--count", "500")),
          flags.get("--token"));
      return;
    }
    if (args.length > 0 && "broker".equals(args[0])) {
      runBroker(flags(args));
      return;
    }
    if (args.length == 0 || !"serve".equals(args[0])) {
      System.err.print(USAGE);
      System.exit(args.length == 0 || "help".equals(args[0]) || "--help".equals(args[0]) ? 0 : 2);
      return;
    }
    Map<String, String> overrides = new HashMap<>();
    Path configFile = null;
    for (int i = 1; i < args.length; i++) {
      String flag = args[i];
      if (i + 1 >= args.length) {
        fail("Missing value for " + flag);
      }
      String value = args[++i];
      switch (flag) {
        case "--port" -> overrides.put("floe.port", value);
        case "--host" -> overrides.put("floe.host", value);
        case "--data-dir" -> overrides.put("floe.data-dir", value);
        case "--kafka" -> overrides.put("floe.kafka.bootstrap-servers", value);
        case "--auth" -> overrides.put("floe.auth", value);
        case "--config" -> configFile = Path.of(value);
        default -> fail("Unknown option " + flag);
      }
    }
    FloeConfig config = FloeConfig.load(configFile, overrides);
    FloeServer server = FloeServer.start(config);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                },
                "floe-shutdown"));
    System.out.println(banner(config, server.port()));
    stopped.await();
  }

  /**
   * Runs the embedded broker alone, with its log under {@code <data-dir>/kafka} and its ports in
   * {@code <data-dir>/kafka-ports.properties}, as {@code floe serve} would, until the process is
   * stopped. A fatal broker fault halts this process only, never a catalog instance.
   */
  private static void runBroker(Map<String, String> flags) throws InterruptedException {
    Set<String> known =
        Set.of(
            "--data-dir",
            "--port",
            "--node-id",
            "--controller-quorum",
            "--controller-port",
            "--cluster-id");
    for (String flag : flags.keySet()) {
      if (!known.contains(flag)) {
        fail("Unknown option " + flag);
      }
    }
    Path dataDir = Path.of(flags.getOrDefault("--data-dir", "./floe-broker"));
    int port = Integer.parseInt(flags.getOrDefault("--port", "0"));
    EmbeddedKafkaBroker broker;
    if (flags.containsKey("--controller-quorum")) {
      // One node of a cluster: every node runs broker and controller, and all share the quorum.
      for (String required : List.of("--node-id", "--cluster-id", "--port")) {
        if (!flags.containsKey(required)) {
          fail("--controller-quorum needs " + required);
        }
      }
      EmbeddedKafkaBroker.ClusterMember member =
          new EmbeddedKafkaBroker.ClusterMember(
              Integer.parseInt(flags.get("--node-id")),
              flags.get("--controller-quorum"),
              flags.get("--cluster-id"));
      int controllerPort =
          flags.containsKey("--controller-port")
              ? Integer.parseInt(flags.get("--controller-port"))
              : member.ownControllerPort();
      broker = new EmbeddedKafkaBroker(dataDir.resolve("kafka"), port, controllerPort, member);
    } else {
      for (String clusterOnly : List.of("--node-id", "--controller-port", "--cluster-id")) {
        if (flags.containsKey(clusterOnly)) {
          fail(clusterOnly + " needs --controller-quorum");
        }
      }
      broker = new EmbeddedKafkaBroker(dataDir.resolve("kafka"), port);
    }
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
    System.out.println("Kafka broker listening on " + broker.bootstrapServers());
    stopped.await();
  }

  static String banner(FloeConfig config, int port) {
    String url = "http://localhost:" + port;
    return """

Floe is serving the Iceberg REST catalog at %s
  data directory: %s
  kafka:          %s
  warehouse:      %s -> %s

%s
Spark:
  --conf spark.sql.catalog.floe=org.apache.iceberg.spark.SparkCatalog
  --conf spark.sql.catalog.floe.type=rest
  --conf spark.sql.catalog.floe.uri=%s
  --conf spark.sql.catalog.floe.warehouse=%s%s

PyIceberg:
  from pyiceberg.catalog import load_catalog
  catalog = load_catalog("floe", uri="%s", warehouse="%s"%s)
"""
        .formatted(
            url,
            config.dataDir(),
            config.embeddedKafka()
                ? "embedded (" + config.dataDir().resolve("kafka") + ")"
                : config.kafkaBootstrap(),
            config.defaultWarehouse(),
            config.warehouseRoot(config.defaultWarehouse()),
            config.auth().enabled()
                ? "  admin token:    "
                    + config.dataDir().resolve("admin.token")
                    + " (owner-only; create principals and tokens with floe principals|tokens)\n"
                : "  AUTHENTICATION IS OFF (--auth none): anyone who can reach this port is"
                    + " admin\n",
            url,
            config.defaultWarehouse(),
            config.auth().enabled()
                ? "\n  --conf spark.sql.catalog.floe.token=$(cat "
                    + config.dataDir().resolve("admin.token")
                    + ")"
                : "",
            url,
            config.defaultWarehouse(),
            config.auth().enabled() ? ", token=\"<the token>\"" : "");
  }

  private static Map<String, String> flags(String[] args) {
    Map<String, String> flags = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (i + 1 >= args.length) {
        fail("Missing value for " + args[i]);
      }
      flags.put(args[i], args[i + 1]);
    }
    return flags;
  }

  private static void fail(String message) {
    System.err.println(message);
    System.err.print(USAGE);
    System.exit(2);
  }
}
