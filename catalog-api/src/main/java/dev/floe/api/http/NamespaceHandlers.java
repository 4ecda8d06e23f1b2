package dev.floe.api.http;

import dev.floe.events.CommandReply;
import dev.floe.events.command.CreateNamespaceCommand;
import dev.floe.events.command.DropNamespaceCommand;
import dev.floe.events.command.UpdateNamespacePropertiesCommand;
import dev.floe.events.state.NamespaceState;
import dev.floe.infra.storage.config.StorageConfig;
import dev.floe.projections.Page;
import io.vertx.core.Future;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.CreateNamespaceResponse;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.UpdateNamespacePropertiesResponse;

/** The namespace routes of the Iceberg REST spec. */
final class NamespaceHandlers {
  private static final String LOCATION = "location";

  private final CatalogContext catalog;

  NamespaceHandlers(CatalogContext catalog) {
    this.catalog = catalog;
  }

  Future<HttpResult> handleListNamespaces(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    String parentParam = request.query("parent");
    Namespace parent =
        parentParam == null || parentParam.isEmpty()
            ? Namespace.empty()
            : RequestContext.parseNamespace(parentParam);
    String pageToken = request.query("pageToken");
    Integer pageSize = request.pageSize();
    return catalog
        .read(
            () -> {
              if (!parent.isEmpty()
                  && catalog.queries(request).namespace(warehouse, parent).isEmpty()) {
                throw ApiException.noSuchNamespace(parent);
              }
              return catalog
                  .queries(request)
                  .listNamespaces(warehouse, parent, pageToken, pageSize);
            })
        .map(
            (Page<Namespace> page) ->
                HttpResult.json(
                    ListNamespacesResponse.builder()
                        .addAll(Guards.visibleNamespaces(catalog, request, warehouse, page.items()))
                        .nextPageToken(page.nextPageToken())
                        .build()));
  }

  Future<HttpResult> handleCreateNamespace(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    CreateNamespaceRequest body = request.body(CreateNamespaceRequest.class);
    Names.requireValid(body.namespace());
    Names.requireNoNulls(body.properties());
    requireKnownProfile(body.properties());
    CreateNamespaceCommand command =
        new CreateNamespaceCommand(
            catalog.header(request), warehouse, body.namespace(), body.properties());
    return catalog
        .submit(command)
        .map(
            reply ->
                HttpResult.json(
                    CreateNamespaceResponse.builder()
                        .withNamespace(body.namespace())
                        .setProperties(
                            reply.properties() == null
                                ? new HashMap<>()
                                : new HashMap<>(reply.properties()))
                        .build()));
  }

  Future<HttpResult> handleLoadNamespace(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    Namespace namespace = request.namespace();
    return catalog
        .read(
            () -> withLocation(request, warehouse, namespace, load(request, warehouse, namespace)))
        .map(
            properties ->
                HttpResult.json(
                    GetNamespaceResponse.builder()
                        .withNamespace(namespace)
                        .setProperties(properties)
                        .build()));
  }

  /**
   * The namespace's properties, with {@code location} its storage area when none was set (as
   * iceberg-core's JdbcCatalog answers): engines such as Trino place tables under it, and choose a
   * create path that needs it. Reads the ancestors' properties: call off the event loop.
   */
  private Map<String, String> withLocation(
      RequestContext request, String warehouse, Namespace namespace, NamespaceState state) {
    Map<String, String> properties = new HashMap<>(state.properties());
    if (!properties.containsKey(LOCATION)) {
      try {
        properties.put(
            LOCATION, catalog.storageArea(request, warehouse, namespace, null).spelling());
      } catch (ApiException e) {
        // A storage profile no longer configured: the namespace answers without a location.
      }
    }
    return properties;
  }

  Future<HttpResult> handleNamespaceExists(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    Namespace namespace = request.namespace();
    return catalog
        .read(() -> load(request, warehouse, namespace))
        .map(state -> HttpResult.noContent());
  }

  Future<HttpResult> handleDropNamespace(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    DropNamespaceCommand command =
        new DropNamespaceCommand(catalog.header(request), warehouse, request.namespace());
    return catalog.submit(command).map(reply -> HttpResult.noContent());
  }

  Future<HttpResult> handleUpdateProperties(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    Namespace namespace = request.namespace();
    UpdateNamespacePropertiesRequest body = request.body(UpdateNamespacePropertiesRequest.class);
    Names.requireNoNulls(body.updates());
    Names.requireNoNulls(body.removals());
    requireKnownProfile(body.updates());
    UpdateNamespacePropertiesCommand command =
        new UpdateNamespacePropertiesCommand(
            catalog.header(request), warehouse, namespace, body.updates(), body.removals());
    return catalog.submit(command).map(NamespaceHandlers::updatedResponse);
  }

  /** A namespace may bind only a configured storage profile (400 otherwise). */
  private void requireKnownProfile(Map<String, String> properties) {
    String profile = properties == null ? null : properties.get(StorageConfig.PROFILE_PROPERTY);
    if (profile != null) {
      catalog.storage().requireProfile(profile);
    }
  }

  private static HttpResult updatedResponse(CommandReply reply) {
    return HttpResult.json(
        UpdateNamespacePropertiesResponse.builder()
            .addUpdated(reply.updated())
            .addRemoved(reply.removed())
            .addMissing(reply.missing())
            .build());
  }

  private NamespaceState load(RequestContext request, String warehouse, Namespace namespace) {
    return catalog
        .queries(request)
        .namespace(warehouse, namespace)
        .orElseThrow(() -> ApiException.noSuchNamespace(namespace));
  }
}
