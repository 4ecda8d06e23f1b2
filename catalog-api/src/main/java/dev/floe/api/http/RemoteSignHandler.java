package dev.floe.api.http;

import dev.floe.infra.storage.vending.AccessLevel;
import io.vertx.core.Future;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.RemoteSignRequest;

/**
 * {@code POST /v1/{prefix}/namespaces/{ns}/tables/{table}/sign}: an engine's S3 request, signed by
 * the catalog when it stays inside the table and the caller may do what it does ({@link
 * RemoteSigner}). The route's guard ({@link Guards#SIGN}) asked for read or write on the table.
 */
final class RemoteSignHandler {
  private final CatalogContext catalog;

  RemoteSignHandler(CatalogContext catalog) {
    this.catalog = catalog;
  }

  Future<HttpResult> handleSign(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    RemoteSignRequest sign = request.body(RemoteSignRequest.class);
    StorageAccess storage = catalog.storage();
    return catalog.read(
        () -> {
          List<String> held = OwnerReads.held(catalog, request, warehouse, table);
          if (held.isEmpty()) {
            throw ApiException.noSuchTable(table);
          }
          boolean mayWrite = storage.accessLevel(request, table) == AccessLevel.READ_WRITE;
          return storage.signer().sign(table, held, mayWrite, sign);
        });
  }
}
