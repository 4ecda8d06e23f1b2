package dev.floe.projections.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.event.EventEnvelope;
import dev.floe.events.event.EventTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The event type → operation type vocabulary names what the endpoint serves for each event. */
class OperationTypesTest {
  @Test
  void everyEventTypeHasTheOperationTypeItIsServedAs() throws IOException {
    assertThat(CatalogObjectEvent.OPERATION_TYPES.keySet())
        .containsExactlyInAnyOrderElementsOf(EventTypes.types());
    assertThat(CatalogObjectEvent.OPERATION_TYPES.values()).doesNotHaveDuplicates();
    int checked = 0;
    try (Stream<Path> examples = Files.list(examples())) {
      for (Path example :
          examples.filter(p -> p.getFileName().toString().startsWith("floe.")).toList()) {
        EventEnvelope envelope = EventEnvelope.fromBytes(Files.readAllBytes(example));
        assertThat(CatalogObjectEvent.of(envelope.data()).operationType())
            .as(example.getFileName().toString())
            .isEqualTo(CatalogObjectEvent.OPERATION_TYPES.get(envelope.data().type()));
        checked++;
      }
    }
    assertThat(checked).isEqualTo(EventTypes.types().size());
  }

  /** docs/events/examples: one example of every event type. */
  private static Path examples() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path examples = dir.resolve("docs/events/examples");
      if (Files.isDirectory(examples)) {
        return examples;
      }
    }
    throw new IllegalStateException(
        "No docs/events/examples above " + Path.of("").toAbsolutePath());
  }
}
