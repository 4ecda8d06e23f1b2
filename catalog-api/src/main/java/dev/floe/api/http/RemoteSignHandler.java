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
  private final AuditLog audit;

  RemoteSignHandler(CatalogContext catalog, AuditLog audit) {
    this.catalog = catalog;
    this.audit = audit;
  }

  /**
   * Answered on the event loop when the warehouse's directory is on this instance (one local store
   * read and an HMAC chain, nothing that blocks: the hand-off to a worker thread and back would
   * cost more than the signing); else from a worker, which asks the instance that holds it.
   */
  Future<HttpResult> handleSign(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    RemoteSignRequest sign = request.body(RemoteSignRequest.class);
    List<String> held;
    try {
      held = catalog.queries().heldTableLocations(warehouse, table);
    } catch (RuntimeException elsewhere) {
      // Another instance holds the directory, or the store is moving: the usual way answers.
      return catalog.read(
          () -> answer(request, table, OwnerReads.held(catalog, request, warehouse, table), sign));
    }
    return Future.succeededFuture(answer(request, table, held, sign));
  }

  private HttpResult answer(
      RequestContext request, TableIdentifier table, List<String> held, RemoteSignRequest sign) {
    if (held.isEmpty()) {
      throw ApiException.noSuchTable(table);
    }
    StorageAccess storage = catalog.storage();
    boolean mayWrite = storage.accessLevel(request, table) == AccessLevel.READ_WRITE;
    boolean write = RemoteSigner.writes(sign.method());
    try {
      HttpResult signed = storage.signer().sign(table, held, mayWrite, sign);
      audit.dataAccess(request, table.toString(), write, true);
      return signed;
    } catch (ApiException e) {
      if (e.status() == 403) {
        audit.dataAccess(request, table.toString(), write, false);
      }
      throw e;
    }
  }
}
