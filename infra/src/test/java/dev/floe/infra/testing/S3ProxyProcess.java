package dev.floe.infra.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A real S3 API server on loopback: S3Proxy with its filesystem backend, in a child JVM (its Jetty,
 * Netty and Jackson would clash with Floe's), on the class path that module {@code test-s3proxy}
 * resolved (its jar must be on the test class path). It checks AWS v2/v4 signatures against one
 * identity; buckets are directories.
 */
public final class S3ProxyProcess implements AutoCloseable {
  private final Path baseDir;
  private final int port;
  private final String identity;
  private final String credential;
  private final Path log;
  private Process process;

  public S3ProxyProcess(Path baseDir, String identity, String credential) throws IOException {
    this.baseDir = baseDir;
    this.identity = identity;
    this.credential = credential;
    this.port = FreePorts.next();
    this.log = Path.of("target", "it-logs", "s3proxy-" + port + ".log");
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /**
   * The configuration of a warehouse or storage profile on this server ({@code prefix}: {@code
   * floe.warehouse.<name>.} or {@code floe.storage-profile.<name>.}): its root, this endpoint path
   * style, region {@code us-east-1}, and the identity's keys as the catalog's own.
   */
  public Map<String, String> storage(String prefix, String root) {
    return Map.of(
        prefix + "location",
        root,
        prefix + "s3.endpoint",
        endpoint(),
        prefix + "s3.path-style-access",
        "true",
        prefix + "s3.region",
        "us-east-1",
        prefix + "s3.access-key-id",
        identity,
        prefix + "s3.secret-access-key",
        credential);
  }

  /** Creates a bucket (a directory of the filesystem backend). */
  public S3ProxyProcess bucket(String name) throws IOException {
    Files.createDirectories(baseDir.resolve("data").resolve(name));
    return this;
  }

  public S3ProxyProcess start() throws IOException, InterruptedException {
    Files.createDirectories(log.getParent());
    Files.createDirectories(baseDir.resolve("data"));
    Properties props = new Properties();
    props.setProperty("s3proxy.endpoint", endpoint());
    props.setProperty("s3proxy.authorization", "aws-v2-or-v4");
    props.setProperty("s3proxy.identity", identity);
    props.setProperty("s3proxy.credential", credential);
    // The SDK's batch delete sends headers S3Proxy does not know.
    props.setProperty("s3proxy.ignore-unknown-headers", "true");
    props.setProperty("jclouds.provider", "filesystem");
    props.setProperty("jclouds.filesystem.basedir", baseDir.resolve("data").toString());
    props.setProperty("jclouds.identity", identity);
    props.setProperty("jclouds.credential", credential);
    Path config = baseDir.resolve("s3proxy.properties");
    try (var out = Files.newOutputStream(config)) {
      props.store(out, "S3ProxyProcess");
    }
    // S3Proxy's own logback setup logs every Jetty buffer at DEBUG: millions of lines per test
    // run, and CPU taken from the catalog under test. Warnings are enough.
    Path logback = baseDir.resolve("logback.xml");
    Files.writeString(
        logback,
        "<configuration><appender name=\"OUT\" class=\"ch.qos.logback.core.ConsoleAppender\">"
            + "<encoder><pattern>%d %level %logger - %msg%n</pattern></encoder></appender>"
            + "<root level=\"WARN\"><appender-ref ref=\"OUT\"/></root></configuration>");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-Dlogback.configurationFile=" + logback);
    command.add("-cp");
    command.add(classpath());
    command.add("org.gaul.s3proxy.Main");
    command.add("--properties");
    command.add(config.toString());
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("LOG_LEVEL", "info");
    process =
        builder
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
            .start();
    awaitListening();
    return this;
  }

  private void awaitListening() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "S3Proxy exited with " + process.exitValue() + "; see " + log.toAbsolutePath());
      }
      try {
        HttpURLConnection connection =
            (HttpURLConnection) URI.create(endpoint() + "/").toURL().openConnection();
        connection.setConnectTimeout(500);
        connection.setReadTimeout(1000);
        connection.getResponseCode();
        return;
      } catch (IOException e) {
        Thread.sleep(100);
      }
    }
    throw new IllegalStateException("S3Proxy did not listen within 60 s; see " + log);
  }

  static String classpath() throws IOException {
    try (InputStream in =
        S3ProxyProcess.class.getClassLoader().getResourceAsStream("floe-s3proxy.classpath")) {
      if (in == null) {
        throw new IllegalStateException(
            "No floe-s3proxy.classpath on the test class path: build module test-s3proxy");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
