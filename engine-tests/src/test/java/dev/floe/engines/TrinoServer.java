package dev.floe.engines;

import dev.floe.infra.testing.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A single-node Trino server as a child JVM: Maven Central's {@code io.trino:trino-server-core}
 * tarball with the {@code trino-iceberg} plugin (both unpacked by this module's build into {@code
 * target/trino}), one catalog file per Iceberg catalog given. Trino 476 needs Java 24 or newer,
 * which is looked for under {@code /usr/lib/jvm} (or {@code $TRINO_JAVA_HOME}).
 */
final class TrinoServer implements AutoCloseable {
  static final String VERSION = "476";
  private static final Path INSTALL = Path.of("target", "trino", "trino-server-core-" + VERSION);
  private static final Path PLUGINS = Path.of("target", "trino", "plugin");

  private final Path dir;
  private final int port = FreePorts.next();
  private final Path log;
  private Process process;

  /**
   * @param catalogs catalog name → its properties ({@code etc/catalog/<name>.properties})
   */
  TrinoServer(Path dir, Map<String, Map<String, String>> catalogs) {
    this.dir = dir.toAbsolutePath();
    this.log = Path.of("target", "it-logs", "trino-" + port + ".log").toAbsolutePath();
    try {
      Files.createDirectories(this.dir.resolve("etc").resolve("catalog"));
      Files.createDirectories(log.getParent());
      Map<String, String> config = new TreeMap<>();
      config.put("coordinator", "true");
      config.put("node-scheduler.include-coordinator", "true");
      config.put("http-server.http.port", Integer.toString(port));
      config.put("discovery.uri", "http://127.0.0.1:" + port);
      config.put("node.environment", "floe_tests");
      config.put("node.id", "floe-engine-tests");
      config.put("plugin.dir", PLUGINS.toAbsolutePath().toString());
      config.put("catalog.config-dir", this.dir.resolve("etc").resolve("catalog").toString());
      config.put("query.max-memory", "512MB");
      config.put("query.max-memory-per-node", "512MB");
      write(this.dir.resolve("etc").resolve("config.properties"), config);
      for (Map.Entry<String, Map<String, String>> catalog : catalogs.entrySet()) {
        write(
            this.dir.resolve("etc").resolve("catalog").resolve(catalog.getKey() + ".properties"),
            catalog.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** True when the unpacked server and plugin and a Java 24+ are here. */
  static boolean available() {
    return Files.isDirectory(INSTALL.resolve("lib"))
        && Files.isDirectory(PLUGINS)
        && javaHome().isPresent();
  }

  /** A JDK of version 24 or newer: {@code $TRINO_JAVA_HOME}, else the newest under /usr/lib/jvm. */
  static Optional<Path> javaHome() {
    String given = System.getenv("TRINO_JAVA_HOME");
    if (given != null && !given.isBlank()) {
      return Optional.of(Path.of(given));
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return Optional.empty();
    }
    try (Stream<Path> homes = Files.list(jvms)) {
      return homes
          .filter(home -> Files.isExecutable(home.resolve("bin").resolve("java")))
          .filter(home -> featureVersion(home) >= 24)
          .max(Comparator.comparingInt(TrinoServer::featureVersion));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The {@code JAVA_VERSION} of a JDK's {@code release} file, as its feature number (0: none). */
  private static int featureVersion(Path home) {
    try {
      Properties release = new Properties();
      try (var in = Files.newBufferedReader(home.resolve("release"))) {
        release.load(in);
      }
      String version = release.getProperty("JAVA_VERSION", "\"0\"").replace("\"", "");
      return Integer.parseInt(version.split("[.+-]")[0]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  TrinoServer start() {
    Path java = javaHome().orElseThrow().resolve("bin").resolve("java");
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    // The heap and flags of Trino's recommended jvm.config, sized for a 2-core test machine.
    command.addAll(
        List.of(
            "-Xmx1536m",
            "-XX:+UseG1GC",
            "-XX:+ExitOnOutOfMemoryError",
            "-XX:-OmitStackTraceInFastThrow",
            "-XX:+EnableDynamicAgentLoading",
            "-Djdk.attach.allowAttachSelf=true",
            "-Dfile.encoding=UTF-8",
            "--enable-native-access=ALL-UNNAMED",
            "-Dconfig=" + dir.resolve("etc").resolve("config.properties"),
            "-cp",
            INSTALL.toAbsolutePath().resolve("lib") + "/*",
            "io.trino.server.TrinoServer"));
    try {
      process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      awaitStarted();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return this;
  }

  /** Trino answers {@code "starting":false} at {@code /v1/info} once its catalogs are loaded. */
  private void awaitStarted() throws InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "Trino exited with " + process.exitValue() + "; see " + log);
      }
      try {
        HttpResponse<String> info =
            client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/info"))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (info.statusCode() == 200 && info.body().contains("\"starting\":false")) {
          return;
        }
      } catch (IOException e) {
        // Not listening yet.
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("Trino did not start within 180 s; see " + log);
  }

  /** A JDBC connection as {@code user} (Trino's own users: the catalog decides with its token). */
  Connection connect(String user) throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", user);
    return DriverManager.getConnection("jdbc:trino://127.0.0.1:" + port, properties);
  }

  Path log() {
    return log;
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  private static void write(Path file, Map<String, String> properties) throws IOException {
    StringBuilder text = new StringBuilder();
    properties.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
    Files.writeString(file, text);
  }
}
