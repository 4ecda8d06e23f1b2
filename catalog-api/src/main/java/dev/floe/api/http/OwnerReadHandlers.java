package dev.floe.api.http;

import io.vertx.core.Future;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The internal routes another instance reads from the one that holds a warehouse's directory
 * ({@link OwnerReads}): the locations a table holds, and which entity holds a name now. Guarded
 * like a load of the table, with the caller's own rights.
 */
final class OwnerReadHandlers {
  private final CatalogContext catalog;

  OwnerReadHandlers(CatalogContext catalog) {
    this.catalog = catalog;
  }

  /** {@code GET /internal/v1/{prefix}/namespaces/{ns}/tables/{table}/claimed-location}. */
  Future<HttpResult> handleClaimedLocation(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    return catalog.read(
        () -> OwnerReads.claimedAnswer(catalog.queries().heldTableLocations(warehouse, table)));
  }

  /**
   * {@code GET /internal/v1/{prefix}/namespaces/{ns}/tables/{table}/holder}: the uuid of the table
   * (or, with {@code kind=view}, the view) holding the name now, for another instance's events.
   */
  Future<HttpResult> handleHolder(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier name = request.table();
    boolean view = "view".equals(request.query("kind"));
    return catalog.read(
        () -> OwnerReads.holderAnswer(catalog.queries().uuidNow(warehouse, name, view)));
  }
}
