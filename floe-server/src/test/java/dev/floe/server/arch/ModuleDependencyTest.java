package dev.floe.server.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module roles and dependency arrows of docs/architecture.md (*Modules*), checked on the
 * compiled classes of every module the server is built from.
 */
class ModuleDependencyTest {
  private static final String EVENTS = "dev.floe.events..";
  private static final String INFRA = "dev.floe.infra..";
  private static final String CLIENT = "dev.floe.client..";
  private static final String PROCESSOR = "dev.floe.processor..";
  private static final String PROCESSOR_RUNTIME = "dev.floe.processor.kafka..";
  private static final String PROJECTIONS = "dev.floe.projections..";
  private static final String API = "dev.floe.api..";
  private static final String SERVER = "dev.floe.server..";

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = MainClasses.all();
  }

  @Test
  void catalogEventsDependsOnNoOtherModule() {
    noClasses()
        .that()
        .resideInAPackage(EVENTS)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(INFRA, CLIENT, PROCESSOR, PROJECTIONS, API, SERVER)
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
  void infraDependsOnTheEventsAlone() {
    noClasses()
        .that()
        .resideInAPackage(INFRA)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(CLIENT, PROCESSOR, PROJECTIONS, API, SERVER)
        .check(classes);
  }

  @Test
  void theCommandClientKnowsOnlyTheEventsAndInfra() {
    noClasses()
        .that()
        .resideInAPackage(CLIENT)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(PROCESSOR, PROJECTIONS, API, SERVER)
        .check(classes);
  }

  @Test
  void processorAndProjectionsNeverImportEachOtherTheClientOrTheApi() {
    noClasses()
        .that()
        .resideInAPackage(PROCESSOR)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(CLIENT, PROJECTIONS, API, SERVER)
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage(PROJECTIONS)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(CLIENT, PROCESSOR, API, SERVER)
        .check(classes);
  }

  /**
   * The HTTP adapter decides ahead with the processor's pure deciders (write-ahead commits, whether
   * a commit relocates) but never touches its Kafka Streams runtime, and never the composition root
   * that wires it.
   */
  @Test
  void theApiIsAnAdapterOnly() {
    noClasses()
        .that()
        .resideInAPackage(API)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(PROCESSOR_RUNTIME, SERVER)
        .check(classes);
  }

  @Test
  void deciderIsFreeOfKafka() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.floe.processor", "dev.floe.processor.step")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.apache.kafka..", PROCESSOR_RUNTIME)
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
  void onlyTheApiAndTheServerTalkHttp() {
    noClasses()
        .that()
        .resideInAnyPackage(EVENTS, INFRA, CLIENT, PROCESSOR, PROJECTIONS)
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.vertx..")
        .check(classes);
  }

  @Test
  void modulesAreFreeOfCycles() {
    slices().matching("dev.floe.(*)..").should().beFreeOfCycles().check(classes);
  }

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("dev.floe.(**)").should().beFreeOfCycles().check(classes);
  }
}
