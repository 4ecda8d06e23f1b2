package dev.floe.processor.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.processor.step.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RoutesTest {
  private final Routes routes =
      new CatalogProcessor(
              "floe.steps",
              null,
              Duration.ofHours(1),
              new FaultPoints(Set.of()),
              null,
              w -> Duration.ZERO)
          .routes;

  /** A step type without an entry would stop the processor at its first record of that type. */
  @Test
  void everyStepTypeHasItsOwnEntry() {
    List<Class<?>> steps = concrete(Step.class);

    assertThat(steps).hasSizeGreaterThan(10);
    assertThat(steps)
        .allSatisfy(type -> assertThat(routes.handles(type)).as(type.getName()).isTrue());
  }

  private static List<Class<?>> concrete(Class<?> sealed) {
    List<Class<?>> found = new ArrayList<>();
    for (Class<?> permitted : sealed.getPermittedSubclasses()) {
      if (permitted.isSealed()) {
        found.addAll(concrete(permitted));
      } else {
        found.add(permitted);
      }
    }
    return found;
  }
}
