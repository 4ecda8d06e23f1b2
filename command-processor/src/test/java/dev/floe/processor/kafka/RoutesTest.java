package dev.floe.processor.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.events.command.CatalogCommand;
import dev.floe.processor.DirectoryDecider;
import dev.floe.processor.step.Step;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every command and step type has its handler, checked when the processor's routes are made: a type
 * without one fails at start, naming it, not at its first record.
 */
class RoutesTest {
  sealed interface Shape permits Circle, Polygon {}

  record Circle() implements Shape {}

  sealed interface Polygon extends Shape permits Square, Triangle {}

  record Square() implements Polygon {}

  record Triangle() implements Polygon {}

  @Test
  void aTypeOfTheHierarchyWithoutARouteOrAnotherHandlerFails() {
    Routes routes =
        new Routes((record, command) -> {})
            .add(Circle.class, (record, circle) -> {})
            .add(Square.class, (record, square) -> {});

    assertThat(Routes.leaves(Shape.class))
        .containsExactlyInAnyOrder(Circle.class, Square.class, Triangle.class);
    assertThatThrownBy(() -> routes.requireEvery(Shape.class, type -> false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("No route for Triangle (Shape)");
    assertThat(routes.requireEvery(Shape.class, type -> type == Triangle.class)).isSameAs(routes);
  }

  @Test
  void theProcessorRoutesEveryStepItselfAndEveryOtherCommandToTheDirectory() {
    Routes routes =
        new CatalogProcessor(
                "floe.steps",
                null,
                Duration.ofHours(1),
                new FaultPoints(Set.of()),
                null,
                w -> Duration.ZERO)
            .routes;

    List<Class<?>> steps = Routes.leaves(Step.class);
    assertThat(steps).hasSizeGreaterThan(10);
    assertThat(steps)
        .allSatisfy(type -> assertThat(routes.handles(type)).as(type.getName()).isTrue());
    List<Class<?>> commands = Routes.leaves(CatalogCommand.class);
    assertThat(commands)
        .allSatisfy(
            type ->
                assertThat(routes.handles(type) || DirectoryDecider.handles(type))
                    .as(type.getName())
                    .isTrue());
    assertThat(commands).filteredOn(DirectoryDecider::handles).hasSizeGreaterThan(10);
  }
}
