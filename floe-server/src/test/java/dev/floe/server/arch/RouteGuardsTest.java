package dev.floe.server.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.floe.api.http.ApiException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Who may do what is read from the route table: every refusal of a caller's rights (403) is thrown
 * by the guard its route declares, never by a handler. The storage boundary's 403 (a location the
 * table does not hold) is the one other, and it is about the request's locations, not the caller.
 */
class RouteGuardsTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = MainClasses.all();
  }

  @Test
  void onlyTheRoutesGuardsRefuseACallerARight() {
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName("dev.floe.api.http.Guards")
        .and()
        .doNotHaveFullyQualifiedName("dev.floe.api.http.ManagementGuards")
        .and()
        .doNotHaveFullyQualifiedName("dev.floe.api.http.StorageAccess")
        .should()
        .callMethod(ApiException.class, "forbidden", String.class, String.class)
        .because("a route's guard in the route table says who may call it")
        .check(classes);
  }
}
