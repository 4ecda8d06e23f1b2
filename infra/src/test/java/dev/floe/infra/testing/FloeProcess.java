package dev.floe.infra.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code floe} in its own JVM, started the way {@code bin/floe} starts it: the packaged
 * {@code floe-server.jar} and its runtime libraries. The one launcher of every test that runs a
 * Floe server or a Floe broker: killable with SIGKILL, restartable on the same data directory and
 * port. Plain JDK code, so that tests whose class path must not hold Floe's (the engine tests) can
 * use it.
 */
public final class FloeProcess implements AutoCloseable {
  private static final long READY_SECONDS = 300;

  /**
   * Options of every JVM it starts ({@code -Dfloe.test.jvm-options}, blank for none). By default
   * the C1 compiler alone: half the CPU of a start-up with C2, and tests measure no speed; the long
   * fault harness, whose figures are published, runs with the JVM's defaults.
   */
  private static final List<String> JVM_OPTIONS =
      Arrays.stream(
              System.getProperty("floe.test.jvm-options", "-XX:TieredStopAtLevel=1").split(" "))
          .filter(o -> !o.isBlank())
          .toList();

  private final Path dataDir;
  private final int port;
  private final Path log;
  private final Map<String, String> properties;
  private Path copyDir;
  private Process process;
  private int starts;

  /** A server on the embedded default, with access control off. */
  public FloeProcess(Path dataDir) {
    this(dataDir, Map.of());
  }

  /**
   * @param properties configuration keys (README.md), passed as a {@code --config} file; {@code
   *     floe.auth} is {@code none} unless given (only the access tests need tokens)
   */
  public FloeProcess(Path dataDir, Map<String, String> properties) {
    this.dataDir = dataDir;
    Map<String, String> withAuth = new HashMap<>(properties);
    withAuth.putIfAbsent("floe.auth", "none");
    this.properties = Map.copyOf(withAuth);
    this.port = FreePorts.next();
    this.log = Path.of("target", "it-logs", dataDir.getFileName() + "-" + port + ".log");
  }

  /**
   * Runs a private copy of the packaged server, made in {@code dir} at the first start: a rebuild
   * of floe-server while the test runs rewrites the jar, and a JVM that loads classes lazily from a
   * rewritten jar fails.
   */
  public FloeProcess copiedTo(Path dir) {
    this.copyDir = dir;
    return this;
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
    Properties ports = new Properties();
    try (var in = Files.newInputStream(dataDir.resolve("kafka-ports.properties"))) {
      ports.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "localhost:" + ports.getProperty("port");
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
    return warehouse().toUri().toString().replaceAll("/$", "");
  }

  /** The warehouse Floe creates when none is configured: {@code <data-dir>/warehouse}. */
  public Path warehouse() {
    return dataDir.toAbsolutePath().normalize().resolve("warehouse");
  }

  /** Starts {@code floe serve} and waits until {@code /health/ready} answers 200. */
  public FloeProcess start() {
    List<String> arguments =
        new ArrayList<>(
            List.of("serve", "--port", String.valueOf(port), "--data-dir", dataDir.toString()));
    try {
      Files.createDirectories(dataDir);
      if (!properties.isEmpty()) {
        Path config = dataDir.resolve("floe.properties");
        Properties props = new Properties();
        props.putAll(properties);
        try (var out = Files.newOutputStream(config)) {
          props.store(out, "FloeProcess");
        }
        arguments.addAll(List.of("--config", config.toString()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    process = launch("1g", arguments, log, starts++ > 0, copyDir);
    awaitReady(process, uri() + "/health/ready", log);
    return this;
  }

  /**
   * Starts {@code floe <arguments>} from the packaged server in a JVM of its own, its output to
   * {@code log}.
   */
  public static Process launch(String heap, List<String> arguments, Path log, boolean append) {
    return launch(heap, arguments, log, append, null);
  }

  private static Process launch(
      String heap, List<String> arguments, Path log, boolean append, Path copyDir) {
    List<String> options = new ArrayList<>(List.of("-Xmx" + heap));
    if (copyDir == null) {
      options.addAll(ClassArchive.options(packagedServer()));
    }
    return launch(
        options, copyDir == null ? classpath() : copiedClasspath(copyDir), arguments, log, append);
  }

  /** A server JVM from the packaged build with no class-data archive (the one that writes it). */
  static Process launchPlain(List<String> options, List<String> arguments, Path log) {
    List<String> all = new ArrayList<>(List.of("-Xmx1g"));
    all.addAll(options);
    return launch(all, classpath(), arguments, log, false);
  }

  private static Process launch(
      List<String> options, String classpath, List<String> arguments, Path log, boolean append) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_OPTIONS);
    command.addAll(options);
    command.add("-cp");
    command.add(classpath);
    command.add("dev.floe.server.Main");
    command.addAll(arguments);
    try {
      Files.createDirectories(log.toAbsolutePath().getParent());
      return new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(
              append
                  ? ProcessBuilder.Redirect.appendTo(log.toFile())
                  : ProcessBuilder.Redirect.to(log.toFile()))
          .start();
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

  /** The process id of the running server (to signal it: SIGSTOP, SIGCONT). */
  public long pid() {
    return process.pid();
  }

  /** Whether the process runs (false after {@link #kill()} until the next {@link #start()}). */
  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  static void awaitReady(Process process, String readyUri, Path log) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "floe exited with " + process.exitValue() + "; see " + log.toAbsolutePath());
      }
      if (answers200(readyUri)) {
        return;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new IllegalStateException(
        "floe was not ready within " + READY_SECONDS + " s; see " + log.toAbsolutePath());
  }

  private static boolean answers200(String uri) {
    try {
      HttpURLConnection connection = (HttpURLConnection) URI.create(uri).toURL().openConnection();
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
   * The folder {@code mvn package} leaves the server in: this module's {@code target} when the test
   * runs in floe-server, else {@code ../floe-server/target}.
   */
  static Path packagedServer() {
    for (Path target : List.of(Path.of("target"), Path.of("..", "floe-server", "target"))) {
      if (Files.isRegularFile(target.resolve("floe-server.jar"))
          && Files.isDirectory(target.resolve("lib"))) {
        return target.toAbsolutePath().normalize();
      }
    }
    throw new IllegalStateException(
        "No packaged Floe server (floe-server/target/floe-server.jar and lib/). Build it first:"
            + " `mvn -B package -DskipTests -pl floe-server -am`, or run the whole reactor.");
  }

  /** The packaged server jar and its runtime dependencies, as bin/floe runs them. */
  public static String classpath() {
    Path target = packagedServer();
    return target.resolve("floe-server.jar")
        + File.pathSeparator
        + target.resolve("lib")
        + File.separator
        + "*";
  }

  private static String copiedClasspath(Path destination) {
    Path jar = destination.resolve("floe-server.jar");
    Path lib = destination.resolve("lib");
    try {
      if (!Files.exists(jar)) {
        Path target = packagedServer();
        Files.createDirectories(lib);
        try (var libs = Files.list(target.resolve("lib"))) {
          for (Path library : libs.toList()) {
            Files.copy(library, lib.resolve(library.getFileName()));
          }
        }
        Files.copy(target.resolve("floe-server.jar"), jar);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return jar + File.pathSeparator + lib + File.separator + "*";
  }
}
