package dev.floe.api.it;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code floe serve} in its own JVM, on its embedded Kafka broker, started the way {@code
 * bin/floe} starts it: the packaged jar and its runtime libraries. Killable with SIGKILL,
 * restartable on the same data directory and port.
 */
public final class FloeProcess implements AutoCloseable {
  private final Path dataDir;
  private final int port;
  private final Path log;
  private Process process;
  private int starts;

  private final java.util.Map<String, String> properties;

  public FloeProcess(Path dataDir) {
    this(dataDir, java.util.Map.of());
  }

  /**
   * @param properties configuration keys (README.md), passed as a {@code --config} file
   */
  public FloeProcess(Path dataDir, java.util.Map<String, String> properties) {
    this.dataDir = dataDir;
    // Tests that are not about access control run without it; the access tests set floe.auth.
    java.util.Map<String, String> withAuth = new java.util.HashMap<>(properties);
    withAuth.putIfAbsent("floe.auth", "none");
    this.properties = java.util.Map.copyOf(withAuth);
    this.port = freePort();
    this.log = Path.of("target", "it-logs", dataDir.getFileName() + ".log");
  }

  /** The admin token the server wrote on first start (access-control tests). */
  public String adminToken() {
    try {
      return Files.readString(dataDir.resolve("admin.token")).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The bootstrap address of the embedded Kafka broker of the server on {@code dataDir} (from the
   * {@code kafka-ports.properties} it writes there).
   */
  public static String embeddedKafka(Path dataDir) {
    java.util.Properties ports = new java.util.Properties();
    try (var in = Files.newInputStream(dataDir.resolve("kafka-ports.properties"))) {
      ports.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "localhost:" + ports.getProperty("port");
  }

  /**
   * Every event on {@code floe.events} of the server on {@code dataDir}, in each partition's order.
   */
  public static java.util.List<dev.floe.events.event.CatalogEvent> events(Path dataDir) {
    java.util.List<dev.floe.events.event.CatalogEvent> events = new java.util.ArrayList<>();
    dev.floe.projections.replay.EventLogReader.read(
        embeddedKafka(dataDir),
        "floe.events",
        dev.floe.projections.replay.EventLogReader.Until.END,
        e -> events.add(e.data()),
        (done, total) -> {});
    return events;
  }

  /** Where the server's output goes. */
  public Path log() {
    return log;
  }

  public String uri() {
    return "http://localhost:" + port;
  }

  public Path dataDir() {
    return dataDir;
  }

  /** The default warehouse's root, as the server computes it. */
  public String warehouseRoot() {
    return dataDir
        .toAbsolutePath()
        .normalize()
        .resolve("warehouse")
        .toUri()
        .toString()
        .replaceAll("/$", "");
  }

  public FloeProcess start() {
    try {
      Files.createDirectories(log.getParent());
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Xmx1g");
      command.add("-cp");
      command.add(classpath());
      command.add("dev.floe.api.Main");
      command.addAll(
          List.of("serve", "--port", String.valueOf(port), "--data-dir", dataDir.toString()));
      if (!properties.isEmpty()) {
        Path config = dataDir.resolve("floe.properties");
        Files.createDirectories(dataDir);
        java.util.Properties props = new java.util.Properties();
        props.putAll(properties);
        try (var out = Files.newOutputStream(config)) {
          props.store(out, "FloeProcess");
        }
        command.addAll(List.of("--config", config.toString()));
      }
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(
                  starts++ == 0
                      ? ProcessBuilder.Redirect.to(log.toFile())
                      : ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      awaitReady();
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** SIGTERM: the clean shutdown path. */
  public int stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    return process.exitValue();
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null && process.isAlive()) {
      kill();
    }
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "floe serve exited with " + process.exitValue() + "; see " + log.toAbsolutePath());
      }
      try {
        HttpURLConnection connection =
            (HttpURLConnection) URI.create(uri() + "/health/ready").toURL().openConnection();
        connection.setConnectTimeout(1000);
        connection.setReadTimeout(1000);
        if (connection.getResponseCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new IllegalStateException(
        "floe serve was not ready within 300 s; see " + log.toAbsolutePath());
  }

  /** Whether the process runs (false after {@link #kill()} until the next {@link #start()}). */
  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** The packaged catalog-api jar and its runtime dependencies, as bin/floe runs them. */
  static String classpath() {
    Path target = Path.of("target");
    try (var jars = Files.list(target)) {
      Path jar =
          jars.filter(p -> p.getFileName().toString().matches("catalog-api-.*\\.jar"))
              .filter(p -> !p.getFileName().toString().contains("tests"))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "Run `mvn package` first: no catalog-api jar in target/"));
      return jar.toAbsolutePath()
          + File.pathSeparator
          + target.resolve("lib").toAbsolutePath()
          + File.separator
          + "*";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
