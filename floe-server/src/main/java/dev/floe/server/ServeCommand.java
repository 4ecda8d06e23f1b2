package dev.floe.server;

import dev.floe.infra.config.FloeConfig;
import dev.floe.server.cli.CliFailure;
import dev.floe.server.cli.Streams;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code floe serve}: runs the Iceberg REST catalog until the process is stopped, with an embedded
 * Kafka broker unless {@code --kafka} names a cluster. Flags override the {@code --config} file,
 * which overrides the defaults.
 */
@Command(
    name = "serve",
    description = "Run the Iceberg REST catalog until stopped (SIGTERM or Ctrl-C).",
    footerHeading = "%nExample:%n",
    footer = "  floe serve --port 8181 --data-dir ./floe-data --auth none")
public final class ServeCommand implements Callable<Integer> {
  /** {@code --auth}: {@code token} (the default) or {@code none}. */
  enum Auth {
    token,
    none
  }

  private final Streams streams;

  @Spec CommandSpec spec;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "HTTP port of the Iceberg REST catalog (default 8181)")
  Integer port;

  @Option(
      names = "--host",
      paramLabel = "HOST",
      description = "address to listen on (default 0.0.0.0)")
  String host;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description =
          "where the embedded broker, the stores and the default warehouse live"
              + " (default ./floe-data)")
  String dataDir;

  @Option(
      names = "--kafka",
      paramLabel = "host:port,...",
      description = "use this Kafka cluster instead of starting an embedded broker")
  String kafka;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "a properties file; see README.md for every key")
  Path config;

  @Option(
      names = "--auth",
      paramLabel = "MODE",
      description =
          "token (the default: bearer tokens) or none: turn authentication off, every request is"
              + " an unrestricted 'anonymous' (local experiments only)")
  Auth auth;

  public ServeCommand(Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() throws InterruptedException {
    FloeConfig config = config();
    requireFreePort(config);
    FloeServer server;
    try {
      server = FloeServer.start(config);
    } catch (RuntimeException e) {
      // The port was free a moment ago, but something took it before the server bound it.
      throw bindFailure(e).map(bind -> cannotListen(config, bind)).orElseThrow(() -> e);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                },
                "floe-shutdown"));
    streams.out().println(banner(config, server.port()));
    stopped.await();
    return 0;
  }

  /** The configuration of the file and the flags; a bad one is a usage error. */
  private FloeConfig config() {
    if (config != null && !Files.isRegularFile(config)) {
      throw new ParameterException(spec.commandLine(), "--config " + config + ": no such file");
    }
    Map<String, String> overrides = new HashMap<>();
    if (port != null) {
      overrides.put("floe.port", port.toString());
    }
    putIfGiven(overrides, "floe.host", host);
    putIfGiven(overrides, "floe.data-dir", dataDir);
    putIfGiven(overrides, "floe.kafka.bootstrap-servers", kafka);
    putIfGiven(overrides, "floe.auth", auth == null ? null : auth.name());
    try {
      return FloeConfig.load(config, overrides);
    } catch (RuntimeException e) {
      throw new ParameterException(
          spec.commandLine(), (config == null ? "" : "in " + config + ": ") + e.getMessage(), e);
    }
  }

  private static void putIfGiven(Map<String, String> overrides, String key, String value) {
    if (value != null) {
      overrides.put(key, value);
    }
  }

  /**
   * Fails at once, naming the port, when something listens on it already: the server would find out
   * only after starting its broker and stores.
   */
  private static void requireFreePort(FloeConfig config) {
    if (config.port() == 0) {
      return;
    }
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(config.host(), config.port()));
    } catch (IOException e) {
      throw cannotListen(config, e);
    }
  }

  private static CliFailure cannotListen(FloeConfig config, IOException e) {
    if (e instanceof BindException && "Address already in use".equals(e.getMessage())) {
      return new CliFailure(
          "port " + config.port() + " is already in use",
          "stop what listens there, or pick another port with --port");
    }
    return new CliFailure(
        "cannot listen on " + config.host() + ":" + config.port() + " (" + e.getMessage() + ")",
        "pick another --port or --host");
  }

  private static Optional<BindException> bindFailure(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof BindException bind) {
        return Optional.of(bind);
      }
    }
    return Optional.empty();
  }

  /** Every warehouse, the default first, then the others by name. */
  private static String warehouseLines(FloeConfig config) {
    StringBuilder lines = new StringBuilder();
    String first = config.defaultWarehouse();
    Stream.concat(
            Stream.of(first),
            config.warehouses().keySet().stream().filter(w -> !w.equals(first)).sorted())
        .forEach(
            w ->
                lines
                    .append("  warehouse:      ")
                    .append(w)
                    .append(" -> ")
                    .append(config.warehouseRoot(w))
                    .append('\n'));
    return lines.toString();
  }

  static String banner(FloeConfig config, int port) {
    String url = "http://localhost:" + port;
    return
"""

Floe is serving the Iceberg REST catalog at %s
  data directory: %s
  kafka:          %s
%s
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
            warehouseLines(config),
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
}
