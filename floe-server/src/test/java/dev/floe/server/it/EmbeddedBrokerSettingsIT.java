package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.kafka.EmbeddedKafkaBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings Floe gives its embedded broker, as the running broker reports them. */
class EmbeddedBrokerSettingsIT {
  @TempDir Path dir;

  @Test
  void theBrokerRetriesAddingPartitionsToATransactionAfterOneMillisecond() throws Exception {
    try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dir, 0)) {
      broker.start();
      try (Admin admin =
          Admin.create(
              Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
        ConfigResource node = new ConfigResource(ConfigResource.Type.BROKER, "1");
        Config config = admin.describeConfigs(List.of(node)).all().get().get(node);
        // Kafka's default is 20 ms, which every back-to-back transaction of the processor waited.
        assertThat(config.get(EmbeddedKafkaBroker.ADD_PARTITIONS_BACKOFF).value())
            .isEqualTo(String.valueOf(EmbeddedKafkaBroker.ADD_PARTITIONS_BACKOFF_MS));
      }
    }
  }
}
