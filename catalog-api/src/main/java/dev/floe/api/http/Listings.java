package dev.floe.api.http;

import dev.floe.projections.CatalogQueries;
import dev.floe.projections.Page;
import io.vertx.core.Future;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/** Paged listings of a namespace's tables or views: 404 for a missing namespace, else one page. */
final class Listings {
  /** Lists one kind of entry of a namespace. */
  interface Lister {
    Page<TableIdentifier> list(
        CatalogQueries queries,
        String warehouse,
        Namespace namespace,
        String pageToken,
        Integer pageSize);
  }

  private Listings() {}

  static Future<HttpResult> list(CatalogContext catalog, RequestContext request, Lister lister) {
    String warehouse = catalog.warehouse(request);
    Namespace namespace = request.namespace();
    String pageToken = request.query("pageToken");
    Integer pageSize = request.pageSize();
    return catalog
        .read(
            () -> {
              CatalogQueries queries = catalog.queries(request);
              if (queries.namespace(warehouse, namespace).isEmpty()) {
                throw ApiException.noSuchNamespace(namespace);
              }
              return lister.list(queries, warehouse, namespace, pageToken, pageSize);
            })
        .map(
            page ->
                HttpResult.json(
                    ListTablesResponse.builder()
                        .addAll(
                            Guards.readableTables(
                                catalog, request, warehouse, namespace, page.items()))
                        .nextPageToken(page.nextPageToken())
                        .build()));
  }
}
