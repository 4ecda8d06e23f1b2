package dev.floe.server.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** The embedded broker of a local {@code floe serve}: its port is in kafka-ports.properties. */
final class EmbeddedBroker {
  private EmbeddedBroker() {}

  /** {@code localhost:<port>} of the broker {@code floe serve} runs in {@code dataDir}. */
  static String bootstrap(Path dataDir) {
    Path file = dataDir.resolve("kafka-ports.properties");
    String where = dataDir.toAbsolutePath().normalize().toString();
    if (!Files.exists(file)) {
      throw new CliFailure(
          "no --kafka given and no embedded broker in " + where + " (no kafka-ports.properties)",
          "run this next to `floe serve`, or pass --data-dir or --kafka");
    }
    Properties ports = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      ports.load(in);
    } catch (IOException e) {
      throw new CliFailure("cannot read " + file + " (" + e.getMessage() + ")", "pass --kafka", e);
    }
    String port = ports.getProperty("port");
    if (port == null) {
      throw new CliFailure(file + " has no port", "pass --kafka");
    }
    return "localhost:" + port.trim();
  }
}
