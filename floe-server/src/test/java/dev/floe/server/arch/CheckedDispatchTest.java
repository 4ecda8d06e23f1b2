package dev.floe.server.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.properties.HasSourceCodeLocation;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventVisitor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What is done with an event depends on its type through {@link EventVisitor}, whose every
 * implementation names every type: a new event type does not compile until each fold and view of
 * the log says what it does with it. An {@code instanceof} on an event type would fail silently
 * instead, so main code has none.
 */
class CheckedDispatchTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.floe");
  }

  @Test
  void eventsAreDispatchedByTheVisitorNotByInstanceof() {
    codeUnits().should(testNoInstanceofOn(CatalogEvent.class)).check(classes);
  }

  private static ArchCondition<JavaCodeUnit> testNoInstanceofOn(Class<?> sealedType) {
    return new ArchCondition<>("test no instanceof on a subtype of " + sealedType.getSimpleName()) {
      @Override
      public void check(JavaCodeUnit unit, ConditionEvents events) {
        unit.getInstanceofChecks().stream()
            .filter(check -> check.getRawType().isAssignableTo(sealedType))
            .filter(check -> !check.getRawType().isEquivalentTo(sealedType))
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
