package dev.floe.infra.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kafka-ports.properties names the port the broker listens on: the tools find it there. */
class EmbeddedKafkaBrokerPortsTest {
  @TempDir Path dataDir;

  @Test
  void aConfiguredPortReplacesTheRecordedOneAndIsRecorded() throws IOException {
    Path logDir = dataDir.resolve("kafka");
    EmbeddedKafkaBroker first = new EmbeddedKafkaBroker(logDir, 0);
    Properties chosen = recorded();
    assertThat(first.bootstrapServers()).isEqualTo("localhost:" + chosen.getProperty("port"));

    int configured = Integer.parseInt(chosen.getProperty("port")) == 19_092 ? 19_093 : 19_092;
    EmbeddedKafkaBroker second = new EmbeddedKafkaBroker(logDir, configured);
    assertThat(second.bootstrapServers()).isEqualTo("localhost:" + configured);
    assertThat(recorded().getProperty("port")).isEqualTo(String.valueOf(configured));
    assertThat(recorded().getProperty("controller.port"))
        .isEqualTo(chosen.getProperty("controller.port"));

    // Without a configured port the next start keeps the recorded one.
    assertThat(new EmbeddedKafkaBroker(logDir, 0).bootstrapServers())
        .isEqualTo("localhost:" + configured);
  }

  private Properties recorded() throws IOException {
    Properties ports = new Properties();
    try (InputStream in = Files.newInputStream(dataDir.resolve("kafka-ports.properties"))) {
      ports.load(in);
    }
    return ports;
  }
}
