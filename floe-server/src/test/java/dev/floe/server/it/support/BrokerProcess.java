package dev.floe.server.it.support;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.infra.testing.FreePorts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A real single-node Kafka broker in its own JVM ({@code floe broker}, the same broker {@code floe
 * serve} embeds), so a test can SIGKILL it under load without killing a catalog instance. It keeps
 * its data directory and ports across restarts.
 */
public final class BrokerProcess implements AutoCloseable {
  private final Path dataDir;
  private final int port;
  private final Path log;
  private Process process;
  private int starts;

  public BrokerProcess(Path dataDir) {
    this.dataDir = dataDir;
    this.port = FreePorts.next();
    this.log = Path.of("target", "it-logs", dataDir.getFileName() + ".log");
  }

  public String bootstrapServers() {
    return "localhost:" + port;
  }

  /** Starts the broker and waits until it answers a metadata request. */
  public BrokerProcess start() {
    process =
        FloeProcess.launch(
            "512m",
            List.of("broker", "--data-dir", dataDir.toString(), "--port", String.valueOf(port)),
            log,
            starts++ > 0);
    awaitReady();
    return this;
  }

  /** SIGKILL: the broker gets no chance to close its logs; it recovers them on the next start. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** SIGTERM: the broker's controlled shutdown. */
  public void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null && process.isAlive()) {
      kill();
    }
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000))) {
      while (System.nanoTime() < deadline) {
        if (!process.isAlive()) {
          throw new IllegalStateException(
              "floe broker exited with " + process.exitValue() + "; see " + log.toAbsolutePath());
        }
        try {
          if (!admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty()) {
            return;
          }
        } catch (Exception e) {
          // not answering yet
        }
        Thread.sleep(200);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    throw new IllegalStateException(
        "floe broker was not ready within 120 s; see " + log.toAbsolutePath());
  }
}
