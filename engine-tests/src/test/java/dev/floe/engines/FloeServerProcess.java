package dev.floe.engines;

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
 * A real {@code floe serve} in its own JVM, on its embedded Kafka broker, started from the jar and
 * libraries that {@code mvn package} leaves in {@code ../catalog-api/target}. Floe never joins this
 * module's classpath: its broker needs Scala 2.13, the engines here Scala 2.12.
 *
 * <p>The server runs from a private copy of those files: a rebuild of catalog-api while the test
 * runs rewrites the jar, and a JVM that loads classes lazily from a rewritten jar fails with {@code
 * NoClassDefFoundError} halfway through a request.
 */
final class FloeServerProcess implements AutoCloseable {
  private static final Path CATALOG_API_TARGET = Path.of("..", "catalog-api", "target");
  private static final long READY_TIMEOUT_SECONDS = 120;

  private final Path serverDir;
  private final Path dataDir;
  private final int port;
  private final Path log;
  private Process process;
  private final java.util.Map<String, String> properties;

  /** Copies the server into {@code workDir/server}; Floe keeps its data in {@code workDir/data}. */
  FloeServerProcess(Path workDir) {
    this(workDir, java.util.Map.of());
  }

  /**
   * @param properties configuration keys (README.md), passed as a {@code --config} file
   */
  FloeServerProcess(Path workDir, java.util.Map<String, String> properties) {
    this.properties = properties;
    this.serverDir = workDir.resolve("server");
    this.dataDir = workDir.resolve("data");
    this.port = freePort();
    this.log = Path.of("target", "it-logs", "floe-" + port + ".log");
  }

  /** The admin token Floe wrote on first start (the embedded default has access control on). */
  String adminToken() {
    try {
      return Files.readString(dataDir.resolve("admin.token")).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String uri() {
    return "http://localhost:" + port;
  }

  /** The warehouse Floe creates when none is configured: {@code <data-dir>/warehouse}. */
  Path warehouse() {
    return dataDir.resolve("warehouse");
  }

  FloeServerProcess start() {
    String classpath = copyPackagedServer(serverDir);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.add("-cp");
    command.add(classpath);
    command.add("dev.floe.api.Main");
    command.addAll(
        List.of("serve", "--port", String.valueOf(port), "--data-dir", dataDir.toString()));
    try {
      Files.createDirectories(log.getParent());
      if (!properties.isEmpty()) {
        Path config = serverDir.resolve("floe.properties");
        java.util.Properties props = new java.util.Properties();
        props.putAll(properties);
        try (var out = Files.newOutputStream(config)) {
          props.store(out, "FloeServerProcess");
        }
        command.addAll(List.of("--config", config.toString()));
      }
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    awaitReady();
    return this;
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "floe serve exited with " + process.exitValue() + "; see " + log.toAbsolutePath());
      }
      if (configAnswers()) {
        return;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for floe serve", e);
      }
    }
    throw new IllegalStateException(
        "floe serve was not ready within "
            + READY_TIMEOUT_SECONDS
            + " s; see "
            + log.toAbsolutePath());
  }

  private boolean configAnswers() {
    try {
      HttpURLConnection connection =
          (HttpURLConnection) URI.create(uri() + "/health/ready").toURL().openConnection();
      connection.setConnectTimeout(1000);
      connection.setReadTimeout(1000);
      try {
        return connection.getResponseCode() == 200;
      } finally {
        connection.disconnect();
      }
    } catch (IOException e) {
      return false; // not listening yet
    }
  }

  /**
   * Copies the packaged catalog-api jar and its runtime libraries into {@code destination} and
   * returns the classpath to run them, as bin/floe does.
   */
  private static String copyPackagedServer(Path destination) {
    Path target = CATALOG_API_TARGET.toAbsolutePath().normalize();
    Path lib = target.resolve("lib");
    if (!Files.isDirectory(lib)) {
      throw notPackaged(target);
    }
    try (var files = Files.list(target)) {
      Path jar =
          files
              .filter(
                  p -> p.getFileName().toString().matches("catalog-api-[^-]+(-SNAPSHOT)?\\.jar"))
              .findFirst()
              .orElseThrow(() -> notPackaged(target));
      Path libCopy = Files.createDirectories(destination.resolve("lib"));
      Path jarCopy = Files.copy(jar, destination.resolve(jar.getFileName()));
      try (var libs = Files.list(lib)) {
        for (Path library : libs.toList()) {
          Files.copy(library, libCopy.resolve(library.getFileName()));
        }
      }
      return jarCopy + File.pathSeparator + libCopy + File.separator + "*";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static IllegalStateException notPackaged(Path target) {
    return new IllegalStateException(
        "No packaged Floe server in "
            + target
            + " (catalog-api-*.jar and lib/). Build it first:"
            + " `mvn -B package -DskipTests -pl catalog-api -am`, or run the whole reactor.");
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
