package dev.floe.api.http;

import io.vertx.core.Future;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.responses.ConfigResponse;

/** {@code GET /v1/config}: the warehouse becomes the client's path prefix. */
final class ConfigHandler {
  private final CatalogContext catalog;

  /** Exactly the endpoints this server routes: clients skip what is not listed. */
  private final Supplier<List<Endpoint>> endpoints;

  ConfigHandler(CatalogContext catalog, Supplier<List<Endpoint>> endpoints) {
    this.catalog = catalog;
    this.endpoints = endpoints;
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
    Map<String, String> defaults = new HashMap<>();
    if (catalog.config().storage().warehouse(name).vending().enabled()) {
      // Clients send request headers from header.* properties: with this default, an engine given
      // only the URI and the warehouse asks for vended credentials (a client setting wins).
      defaults.put("header." + StorageAccess.ACCESS_DELEGATION, StorageAccess.VENDED_CREDENTIALS);
    }
    ConfigResponse response =
        ConfigResponse.builder()
            .withDefaults(defaults)
            .withOverrides(new HashMap<>(Map.of("prefix", warehouse)))
            .withEndpoints(endpoints.get())
            .withIdempotencyKeyLifetime(catalog.config().idempotencyKeyLifetime().toString())
            .build();
    return Future.succeededFuture(HttpResult.json(response));
  }
}
