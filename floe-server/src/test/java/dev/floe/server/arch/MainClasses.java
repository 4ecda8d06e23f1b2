package dev.floe.server.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** The compiled main classes of every module the server is built from, imported once per JVM. */
final class MainClasses {
  private static JavaClasses classes;

  private MainClasses() {}

  static synchronized JavaClasses all() {
    if (classes == null) {
      classes =
          new ClassFileImporter()
              .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
              // Test jars of other modules (infra's launchers) are on this class path in a full
              // build.
              .withImportOption(location -> !location.contains("-tests.jar"))
              .importPackages("dev.floe");
    }
    return classes;
  }
}
