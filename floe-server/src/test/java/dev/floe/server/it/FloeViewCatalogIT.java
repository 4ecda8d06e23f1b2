package dev.floe.server.it;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.CatalogCleaner;
import dev.floe.server.it.support.RestClients;
import dev.floe.server.it.support.SharedFloe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.view.ViewCatalogTests;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Iceberg's own view suite ({@link ViewCatalogTests}, iceberg-core 1.11.0) through the Java {@link
 * RESTCatalog} against one real Floe server at its defaults, through a writer's token; between
 * tests the catalog is emptied through the client (the drops keep what they drop, and the next test
 * creates the same names again).
 */
class FloeViewCatalogIT extends ViewCatalogTests<RESTCatalog> {
  @RegisterExtension static final SharedFloe SHARED = SharedFloe.withTokens();

  private static FloeProcess floe;
  private static String token;

  private final List<RESTCatalog> opened = new ArrayList<>();
  private RESTCatalog catalog;

  @BeforeAll
  static void startFloe() {
    // With access control on, as a principal holding the writer role (not a superuser).
    floe = SHARED.process();
    token = AuthHttp.writerToken(floe, "suite-views");
  }

  @BeforeEach
  void connect() {
    // The view defaults and overrides the suite asserts a created view carries.
    Map<String, String> properties = new java.util.HashMap<>();
    properties.put(
        org.apache.iceberg.CatalogProperties.VIEW_DEFAULT_PREFIX + "key1", "catalog-default-key1");
    properties.put(
        org.apache.iceberg.CatalogProperties.VIEW_DEFAULT_PREFIX + "key2", "catalog-default-key2");
    properties.put(
        org.apache.iceberg.CatalogProperties.VIEW_DEFAULT_PREFIX + "key3", "catalog-default-key3");
    properties.put(
        org.apache.iceberg.CatalogProperties.VIEW_OVERRIDE_PREFIX + "key3",
        "catalog-override-key3");
    properties.put(
        org.apache.iceberg.CatalogProperties.VIEW_OVERRIDE_PREFIX + "key4",
        "catalog-override-key4");
    properties.put("token", token);
    catalog = RestClients.connect(floe.uri(), properties);
    opened.add(catalog);
    CatalogCleaner.empty(catalog);
  }

  @AfterEach
  void closeClients() throws Exception {
    for (RESTCatalog client : opened) {
      client.close();
    }
    opened.clear();
  }

  @Override
  protected RESTCatalog catalog() {
    return catalog;
  }

  @Override
  protected Catalog tableCatalog() {
    return catalog;
  }

  /**
   * A view's location must lie inside its namespace's area of the warehouse (the suite's default is
   * its own temporary directory): the suite's locations are put in the area of {@code ns}, the
   * namespace of every view it places.
   */
  @Override
  protected String viewLocation(String... paths) {
    StringBuilder location = new StringBuilder(floe.warehouseRoot()).append("/ns/view-locations");
    for (String path : paths) {
      location.append('/').append(path);
    }
    return location.toString();
  }

  @Override
  protected boolean requiresNamespaceCreate() {
    return true;
  }

  @Override
  protected boolean supportsServerSideRetry() {
    return true;
  }
}
