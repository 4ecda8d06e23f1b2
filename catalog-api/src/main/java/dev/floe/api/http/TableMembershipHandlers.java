package dev.floe.api.http;

import dev.floe.events.command.RegisterTableCommand;
import dev.floe.events.command.RenameTableCommand;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;

/** Rename, register, and engines' metrics reports. */
final class TableMembershipHandlers {
  private final CatalogContext catalog;

  TableMembershipHandlers(CatalogContext catalog) {
    this.catalog = catalog;
  }

  Future<HttpResult> handleRenameTable(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    RenameTableRequest body = request.body(RenameTableRequest.class);
    Names.requireValid(body.source());
    Names.requireValid(body.destination());
    RenameTableCommand command =
        new RenameTableCommand(
            catalog.header(request), warehouse, body.source(), body.destination());
    return catalog.submit(command).compose(reply -> catalog.afterRename());
  }

  /**
   * Reads the metadata file here, at the edge (the processor stays free of reads that could fail),
   * and sends what it read: 400 when the file lies outside the storage root the table would be
   * registered into (decided before the file is opened: a register must not read another
   * warehouse's files), or cannot be read as table metadata.
   */
  Future<HttpResult> handleRegisterTable(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    Namespace namespace = request.namespace();
    RegisterTableRequest body = request.body(RegisterTableRequest.class);
    Names.requireValidName(body.name());
    TableIdentifier table = TableIdentifier.of(namespace, body.name());
    return catalog
        .read(
            () -> {
              catalog.requireReadable(request, warehouse, namespace, body.metadataLocation());
              return readMetadata(body.metadataLocation());
            })
        .compose(
            metadata ->
                catalog.submit(
                    new RegisterTableCommand(
                        catalog.header(request),
                        warehouse,
                        table,
                        body.metadataLocation(),
                        metadata,
                        body.overwrite(),
                        Guards.managedNamespaces(catalog, request, warehouse))))
        .compose(reply -> ReplyBodies.table(catalog, request, table, reply));
  }

  private TableMetadata readMetadata(String location) {
    try {
      return catalog.metadataFiles().read(location);
    } catch (RuntimeException e) {
      throw ApiException.badRequest(
          "Cannot read table metadata from %s: %s", location, e.getMessage());
    }
  }

  /**
   * Counts an engine's report for a table that exists. A report for a table that does not (yet)
   * exist, such as one inside a create transaction (Trino's CTAS reports before its commit), is
   * accepted (204) and counted nowhere: nothing acts on it, and a caller cannot mint a metrics
   * series per name it makes up.
   */
  Future<HttpResult> handleReportMetrics(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    ReportMetricsRequest body = request.body(ReportMetricsRequest.class);
    String reportType = body.reportType().name().toLowerCase(Locale.ROOT);
    Runnable count =
        () ->
            catalog
                .metrics()
                .countReport(warehouse, table.namespace().toString(), table.name(), reportType);
    if (request.warehouse().indexOf('@') < 0
        && catalog.queries().tableMetadataLocationNow(warehouse, table) != null) {
      count.run(); // one local store read found it: no hand-off to a worker
      return Future.succeededFuture(HttpResult.noContent());
    }
    return catalog
        .read(() -> catalog.queries(request).tableMetadataLocation(warehouse, table))
        .map(
            location -> {
              location.ifPresent(found -> count.run());
              return HttpResult.noContent();
            });
  }

  Future<HttpResult> handlePrometheus(RequestContext request) {
    byte[] text = catalog.metrics().render().getBytes(StandardCharsets.UTF_8);
    return Future.succeededFuture(
        new HttpResult(200, text, Map.of("Content-Type", "text/plain; version=0.0.4")));
  }
}
