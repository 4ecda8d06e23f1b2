package dev.floe.api.http;

import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.responses.ConfigResponse;

/** {@code GET /v1/config}: the warehouse becomes the client's path prefix. */
final class ConfigHandler {
  /** Exactly the endpoints this server implements: clients skip what is not listed. */
  static final List<Endpoint> ENDPOINTS =
      List.of(
          Endpoint.V1_LIST_NAMESPACES,
          Endpoint.V1_LOAD_NAMESPACE,
          Endpoint.V1_NAMESPACE_EXISTS,
          Endpoint.V1_CREATE_NAMESPACE,
          Endpoint.V1_UPDATE_NAMESPACE,
          Endpoint.V1_DELETE_NAMESPACE,
          Endpoint.V1_LIST_TABLES,
          Endpoint.V1_LOAD_TABLE,
          Endpoint.V1_TABLE_EXISTS,
          Endpoint.V1_CREATE_TABLE,
          Endpoint.V1_UPDATE_TABLE,
          Endpoint.V1_DELETE_TABLE,
          Endpoint.V1_RENAME_TABLE,
          Endpoint.V1_REGISTER_TABLE,
          Endpoint.V1_REPORT_METRICS,
          Endpoint.V1_TABLE_CREDENTIALS,
          Endpoint.V1_LIST_VIEWS,
          Endpoint.V1_LOAD_VIEW,
          Endpoint.V1_VIEW_EXISTS,
          Endpoint.V1_CREATE_VIEW,
          Endpoint.V1_UPDATE_VIEW,
          Endpoint.V1_DELETE_VIEW,
          Endpoint.V1_RENAME_VIEW,
          Endpoint.V1_REGISTER_VIEW,
          Endpoint.V1_COMMIT_TRANSACTION);

  private final CatalogContext catalog;

  ConfigHandler(CatalogContext catalog) {
    this.catalog = catalog;
  }

  Future<HttpResult> handleGetConfig(RequestContext request) {
    String warehouse = request.query("warehouse");
    if (warehouse == null || warehouse.isEmpty()) {
      warehouse = catalog.config().defaultWarehouse();
    }
    int at = warehouse.indexOf('@');
    if (catalog.config().warehouseRoot(at < 0 ? warehouse : warehouse.substring(0, at)) == null) {
      throw ApiException.noSuchWarehouse(warehouse);
    }
    if (at >= 0) {
      CatalogContext.asOfTime(warehouse);
    }
    String name = at < 0 ? warehouse : warehouse.substring(0, at);
    Map<String, String> defaults = new java.util.HashMap<>();
    if (catalog.config().storage().warehouse(name).vending().enabled()) {
      // Clients send request headers from header.* properties: with this default, an engine given
      // only the URI and the warehouse asks for vended credentials (a client setting wins).
      defaults.put("header." + StorageAccess.ACCESS_DELEGATION, StorageAccess.VENDED_CREDENTIALS);
    }
    ConfigResponse response =
        ConfigResponse.builder()
            .withDefaults(defaults)
            .withOverrides(new java.util.HashMap<>(Map.of("prefix", warehouse)))
            .withEndpoints(ENDPOINTS)
            .withIdempotencyKeyLifetime(catalog.config().idempotencyKeyLifetime().toString())
            .build();
    return Future.succeededFuture(HttpResult.json(response));
  }
}
