package dev.floe.server.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.properties.HasSourceCodeLocation;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.floe.events.access.AccessChange;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventVisitor;
import dev.floe.processor.step.Step;
import dev.floe.processor.step.StepVisitor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What is done with an event depends on its type through {@link EventVisitor}, with an access
 * change through {@link AccessChange.Visitor}, with a step through {@link StepVisitor}, whose every
 * implementation names every type: a new type does not compile until each fold and view of the log,
 * the access decider and the directory say what they do with it. An {@code instanceof} on one of
 * those types would fail silently instead, so main code tests none.
 */
class CheckedDispatchTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = MainClasses.all();
  }

  @Test
  void eventsAreDispatchedByTheVisitorNotByInstanceof() {
    codeUnits().should(testNoInstanceofOn(CatalogEvent.class)).check(classes);
  }

  @Test
  void accessChangesAreDispatchedByTheVisitorNotByInstanceof() {
    codeUnits().should(testNoInstanceofOn(AccessChange.class)).check(classes);
  }

  @Test
  void stepsAreDispatchedByTheVisitorNotByInstanceof() {
    codeUnits().should(testNoInstanceofOn(Step.class)).check(classes);
  }

  private static ArchCondition<JavaCodeUnit> testNoInstanceofOn(Class<?> sealedType) {
    return new ArchCondition<>("test no instanceof on a subtype of " + sealedType.getSimpleName()) {
      @Override
      public void check(JavaCodeUnit unit, ConditionEvents events) {
        unit.getInstanceofChecks().stream()
            // a concrete type: what a capability such as KindedStep offers is asked of the
            // interface that declares it
            .filter(check -> check.getRawType().isAssignableTo(sealedType))
            .filter(check -> !check.getRawType().isInterface())
            .forEach(
                check ->
                    events.add(
                        SimpleConditionEvent.violated(
                            unit,
                            unit.getFullName()
                                + " tests instanceof "
                                + check.getRawType().getSimpleName()
                                + " "
                                + ((HasSourceCodeLocation) check).getSourceCodeLocation())));
      }
    };
  }
}
