package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link KafkaFloor} on a real embedded broker: commands go round and are counted. */
class KafkaFloorIT {
  @Test
  void commandsAreAnsweredAndCounted(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("floor.json");
    KafkaFloor.main(
        new String[] {
          "--clients", "1,2", "--duration", "2", "--warmup", "0", "--json", json.toString()
        });
    JsonNode results = RestTarget.JSON.readTree(Files.readString(json));
    for (String name : new String[] {"kafka-floor-commit-1", "kafka-floor-commit-2"}) {
      assertThat(results.path(name).path("ops").asLong()).as(name).isPositive();
      assertThat(results.path(name).path("errors").asLong()).as(name).isZero();
      assertThat(results.path(name).path("p50").asDouble()).as(name).isPositive();
    }
  }
}
