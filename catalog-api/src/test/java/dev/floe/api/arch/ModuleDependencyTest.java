package dev.floe.api.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dependency arrows of docs/architecture.md (*Modules*), checked on the compiled classes of
 * every module.
 */
class ModuleDependencyTest {
  private static final String EVENTS = "dev.floe.events..";
  private static final String INFRA = "dev.floe.infra..";
  private static final String PROCESSOR = "dev.floe.processor..";
  private static final String PROJECTIONS = "dev.floe.projections..";
  private static final String API = "dev.floe.api..";

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.floe");
  }

  @Test
  void catalogEventsDependsOnNoOtherModule() {
    noClasses()
        .that()
        .resideInAPackage(EVENTS)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(INFRA, PROCESSOR, PROJECTIONS, API)
        .check(classes);
  }

  @Test
  void catalogEventsUsesOnlyJacksonAndIceberg() {
    noClasses()
        .that()
        .resideInAPackage(EVENTS)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.apache.kafka..", "io.vertx..")
        .check(classes);
  }

  @Test
  void infraDependsOnNeitherApiNorProcessorNorProjections() {
    noClasses()
        .that()
        .resideInAPackage(INFRA)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(PROCESSOR, PROJECTIONS, API)
        .check(classes);
  }

  @Test
  void processorAndProjectionsNeverImportEachOtherOrTheApi() {
    noClasses()
        .that()
        .resideInAPackage(PROCESSOR)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(PROJECTIONS, API)
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage(PROJECTIONS)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(PROCESSOR, API)
        .check(classes);
  }

  @Test
  void deciderIsFreeOfKafka() {
    noClasses()
        .that()
        .resideInAPackage("dev.floe.processor")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.apache.kafka..")
        .check(classes);
  }

  @Test
  void noRelocatedIcebergImports() {
    noClasses()
        .that()
        .resideInAPackage("dev.floe..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.apache.iceberg.relocated..")
        .check(classes);
  }

  @Test
  void onlyTheApiTalksHttp() {
    noClasses()
        .that()
        .resideInAnyPackage(EVENTS, INFRA, PROCESSOR, PROJECTIONS)
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.vertx..")
        .check(classes);
  }
}
