package dev.floe.api.http;

import dev.floe.events.CommandReply;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.command.CreateTableCommand;
import dev.floe.events.command.DropTableCommand;
import dev.floe.events.state.TableState;
import dev.floe.projections.Page;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/** The table routes of the Iceberg REST spec. */
final class TableHandlers {
  private final CatalogContext catalog;

  TableHandlers(CatalogContext catalog) {
    this.catalog = catalog;
  }

  Future<HttpResult> handleListTables(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    Namespace namespace = request.namespace();
    String pageToken = request.query("pageToken");
    Integer pageSize = request.pageSize();
    return catalog
        .read(
            () -> {
              if (catalog.queries().namespace(warehouse, namespace).isEmpty()) {
                throw ApiException.noSuchNamespace(namespace);
              }
              return catalog.queries().listTables(warehouse, namespace, pageToken, pageSize);
            })
        .map(
            (Page<TableIdentifier> page) ->
                HttpResult.json(
                    ListTablesResponse.builder()
                        .addAll(page.items())
                        .nextPageToken(page.nextPageToken())
                        .build()));
  }

  Future<HttpResult> handleCreateTable(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    Namespace namespace = request.namespace();
    CreateTableRequest body = request.body(CreateTableRequest.class);
    if (body.stageCreate()) {
      throw ApiException.badRequest("Staged table creation is not supported yet");
    }
    CreateTableCommand command =
        new CreateTableCommand(
            catalog.header(request),
            warehouse,
            catalog.config().warehouseRoot(warehouse),
            TableIdentifier.of(namespace, body.name()),
            body.location(),
            body.schema(),
            body.spec() == null ? null : body.spec().toUnbound(),
            body.writeOrder() == null ? null : body.writeOrder().toUnbound(),
            body.properties());
    return catalog.submit(command).map(TableHandlers::tableResponse);
  }

  Future<HttpResult> handleLoadTable(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    return catalog
        .read(() -> load(warehouse, table))
        .map(state -> HttpResult.raw(loadTableJson(state.metadataLocation(), state.metadataJson())));
  }

  Future<HttpResult> handleTableExists(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    return catalog.read(() -> load(warehouse, table)).map(state -> HttpResult.noContent());
  }

  Future<HttpResult> handleCommitTable(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    UpdateTableRequest body = request.body(UpdateTableRequest.class);
    if (body.identifier() != null && !body.identifier().equals(table)) {
      throw ApiException.badRequest("Identifier in body %s does not match path %s", body.identifier(), table);
    }
    CommitTableCommand command =
        new CommitTableCommand(catalog.header(request), warehouse, table, body.requirements(), body.updates());
    return catalog.submit(command).map(TableHandlers::tableResponse);
  }

  Future<HttpResult> handleDropTable(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    boolean purge = Boolean.parseBoolean(request.query("purgeRequested"));
    DropTableCommand command = new DropTableCommand(catalog.header(request), warehouse, table, purge);
    return catalog.submit(command).map(reply -> HttpResult.noContent());
  }

  private TableState load(String warehouse, TableIdentifier table) {
    return catalog.queries().table(warehouse, table).orElseThrow(() -> ApiException.noSuchTable(table));
  }

  private static HttpResult tableResponse(CommandReply reply) {
    return HttpResult.raw(loadTableJson(reply.metadataLocation(), reply.metadata()));
  }

  /**
   * A LoadTableResult with the stored metadata document spliced in as-is: the document is already
   * Iceberg's JSON, so it is neither parsed nor re-serialised on a read.
   */
  static byte[] loadTableJson(String metadataLocation, String metadataJson) {
    StringBuilder json = new StringBuilder(metadataJson.length() + metadataLocation.length() + 64);
    json.append("{\"metadata-location\":");
    appendQuoted(json, metadataLocation);
    json.append(",\"metadata\":").append(metadataJson).append(",\"config\":{}}");
    return json.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void appendQuoted(StringBuilder json, String value) {
    json.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20) {
        json.append(String.format("\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    json.append('"');
  }
}
