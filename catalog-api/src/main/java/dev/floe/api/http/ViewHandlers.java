package dev.floe.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.FloeJson;
import dev.floe.events.command.CatalogCommand;
import dev.floe.events.command.CommitViewCommand;
import dev.floe.events.command.CreateViewCommand;
import dev.floe.events.command.DropViewCommand;
import dev.floe.events.command.RegisterViewCommand;
import dev.floe.events.command.RelocateCommand;
import dev.floe.events.command.RenameViewCommand;
import dev.floe.events.state.TableState;
import dev.floe.processor.RelocationDecider;
import dev.floe.projections.CatalogQueries;
import io.vertx.core.Future;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterViewRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.view.ViewMetadataParser;

/**
 * The view routes of the Iceberg REST spec: tables and views share one name space per namespace.
 */
final class ViewHandlers {
  private final CatalogContext catalog;

  ViewHandlers(CatalogContext catalog) {
    this.catalog = catalog;
  }

  Future<HttpResult> handleListViews(RequestContext request) {
    return Listings.list(catalog, request, CatalogQueries::listViews);
  }

  Future<HttpResult> handleCreateView(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    Namespace namespace = request.namespace();
    CreateViewRequest body = request.body(CreateViewRequest.class);
    Names.requireValidName(body.name());
    Names.requireNoNulls(body.properties());
    CreateViewCommand command =
        new CreateViewCommand(
            catalog.header(request),
            warehouse,
            catalog.config().warehouseRoot(warehouse),
            TableIdentifier.of(namespace, body.name()),
            body);
    return catalog.submit(command).compose(reply -> ReplyBodies.view(catalog, reply));
  }

  Future<HttpResult> handleLoadView(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier view = request.table();
    // On the worker: the document may be read from its file.
    return catalog.read(
        () -> {
          TableState state = load(request, warehouse, view);
          return HttpResult.raw(
              LoadTableResponses.body(state.metadataLocation(), state.metadataJson()));
        });
  }

  Future<HttpResult> handleViewExists(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier view = request.table();
    return catalog.read(() -> load(request, warehouse, view)).map(state -> HttpResult.noContent());
  }

  Future<HttpResult> handleReplaceView(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    TableIdentifier view = request.table();
    UpdateTableRequest body = request.body(UpdateTableRequest.class);
    CommitViewCommand command =
        new CommitViewCommand(
            catalog.header(request), warehouse, view, body.requirements(), body.updates());
    // A commit that moves the view's files has its new locations checked on the warehouse key.
    CatalogCommand routed =
        RelocationDecider.relocates(command)
            ? new RelocateCommand(command.header(), warehouse, command)
            : command;
    return catalog.submit(routed).compose(reply -> ReplyBodies.view(catalog, reply));
  }

  Future<HttpResult> handleDropView(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    DropViewCommand command =
        new DropViewCommand(catalog.header(request), warehouse, request.table());
    return catalog.submit(command).map(reply -> HttpResult.noContent());
  }

  Future<HttpResult> handleRenameView(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    RenameTableRequest body = request.body(RenameTableRequest.class);
    Names.requireValid(body.source());
    Names.requireValid(body.destination());
    RenameViewCommand command =
        new RenameViewCommand(
            catalog.header(request), warehouse, body.source(), body.destination());
    return catalog.submit(command).compose(reply -> catalog.afterRename());
  }

  /** Reads the view metadata file at the edge; 400 when it cannot be read as view metadata. */
  Future<HttpResult> handleRegisterView(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    Namespace namespace = request.namespace();
    RegisterViewRequest body = request.body(RegisterViewRequest.class);
    Names.requireValidName(body.name());
    TableIdentifier view = TableIdentifier.of(namespace, body.name());
    return catalog
        .read(
            () -> {
              catalog.requireReadable(request, warehouse, namespace, body.metadataLocation());
              return readViewMetadata(body.metadataLocation());
            })
        .compose(
            metadata ->
                catalog.submit(
                    new RegisterViewCommand(
                        catalog.header(request),
                        warehouse,
                        view,
                        body.metadataLocation(),
                        metadata,
                        Guards.managedNamespaces(catalog, request, warehouse))))
        .compose(reply -> ReplyBodies.view(catalog, reply));
  }

  private JsonNode readViewMetadata(String location) {
    try {
      String json =
          ViewMetadataParser.toJson(
              ViewMetadataParser.read(catalog.metadataFiles().io(location), location));
      return FloeJson.mapper().readTree(json);
    } catch (Exception e) {
      throw ApiException.badRequest(
          "Cannot read view metadata from %s: %s", location, e.getMessage());
    }
  }

  private TableState load(RequestContext request, String warehouse, TableIdentifier view) {
    return catalog
        .queries(request)
        .view(warehouse, view)
        .orElseThrow(() -> ApiException.noSuchView(view));
  }
}
