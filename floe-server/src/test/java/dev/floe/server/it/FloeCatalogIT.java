package dev.floe.server.it;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.CatalogCleaner;
import dev.floe.server.it.support.RestClients;
import dev.floe.server.it.support.SharedFloe;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.catalog.CatalogTests;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Iceberg's own catalog test suite ({@link CatalogTests}, iceberg-core 1.11.0), run through the
 * Java {@link RESTCatalog} against one real Floe server at its defaults (dropped entities kept for
 * seven days), through a writer's token. Between tests the catalog is emptied through the client,
 * as a user would drop everything: the drops keep what they drop, and the next test creates the
 * same names again.
 */
class FloeCatalogIT extends CatalogTests<RESTCatalog> {
  @RegisterExtension static final SharedFloe SHARED = SharedFloe.withTokens();

  private static FloeProcess floe;
  private static String token;

  private final List<RESTCatalog> opened = new ArrayList<>();
  private RESTCatalog catalog;

  @BeforeAll
  static void startFloe() {
    // With access control on, as a principal holding the writer role (not a superuser).
    floe = SHARED.process();
    token = AuthHttp.writerToken(floe, "suite");
  }

  @BeforeEach
  void connect() {
    catalog = initCatalog("floe", Map.of());
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
  protected RESTCatalog initCatalog(String catalogName, Map<String, String> additionalProperties) {
    Map<String, String> properties = new HashMap<>();
    properties.put(CatalogProperties.TABLE_DEFAULT_PREFIX + "default-key1", "catalog-default-key1");
    properties.put(CatalogProperties.TABLE_DEFAULT_PREFIX + "default-key2", "catalog-default-key2");
    properties.put(
        CatalogProperties.TABLE_DEFAULT_PREFIX + "override-key3", "catalog-default-key3");
    properties.put(
        CatalogProperties.TABLE_OVERRIDE_PREFIX + "override-key3", "catalog-override-key3");
    properties.put(
        CatalogProperties.TABLE_OVERRIDE_PREFIX + "override-key4", "catalog-override-key4");
    properties.putAll(additionalProperties);
    properties.put("token", token);
    RESTCatalog client = RestClients.connect(floe.uri(), properties);
    opened.add(client);
    return client;
  }

  /**
   * A requested location must lie inside its namespace's area of the warehouse: the suite's custom
   * locations are put there.
   */
  @Override
  protected String baseTableLocation(TableIdentifier identifier) {
    return dev.floe.infra.storage.authority.LocationAuthority.area(
                dev.floe.infra.storage.location.Location.parse(floe.warehouseRoot()),
                List.of(identifier.namespace().levels()))
            .spelling()
        + "/requested-"
        + identifier.name();
  }

  @Override
  protected boolean requiresNamespaceCreate() {
    return true;
  }

  @Override
  protected boolean supportsNestedNamespaces() {
    return true;
  }

  @Override
  protected boolean supportsNamesWithDot() {
    return true;
  }

  @Override
  protected boolean supportsNamesWithSlashes() {
    return true;
  }

  @Override
  protected boolean supportsServerSideRetry() {
    return true;
  }
}
