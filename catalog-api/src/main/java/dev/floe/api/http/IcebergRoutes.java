package dev.floe.api.http;

import static dev.floe.api.http.Guards.guarded;
import static io.vertx.core.http.HttpMethod.DELETE;
import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.HEAD;
import static io.vertx.core.http.HttpMethod.POST;
import static io.vertx.core.http.HttpMethod.PUT;

import dev.floe.events.access.AccessEntries.Action;

/**
 * The routes Floe serves: the Iceberg REST routes (the same set {@link ConfigHandler} advertises)
 * and the management API, each behind the guard that says who may use it ({@link Guards}).
 */
public final class IcebergRoutes {
  private IcebergRoutes() {}

  public static RestRouter router(
      CatalogContext catalog,
      AuditLog audit,
      dev.floe.projections.lineage.LineageIndex lineage,
      ManagementHandlers.AccessSync sync) {
    LineageHandlers lineageHandlers = new LineageHandlers(catalog, lineage);
    ConfigHandler config = new ConfigHandler(catalog);
    NamespaceHandlers namespaces = new NamespaceHandlers(catalog);
    TableHandlers tables = new TableHandlers(catalog);
    TableMembershipHandlers membership = new TableMembershipHandlers(catalog);
    ViewHandlers views = new ViewHandlers(catalog);
    ManagementHandlers management = new ManagementHandlers(catalog, sync);
    TokenHandlers tokens = new TokenHandlers(catalog, sync);
    Guards.Guard read = Guards.table(Action.READ);
    Guards.Guard write = Guards.table(Action.WRITE);
    Guards.Guard namespaceWrite = Guards.namespace(Action.WRITE);
    Guards.Guard any = Guards.AUTHENTICATED;
    Guards.Guard superuser = Guards.SUPERUSER;
    String ns = "/v1/{prefix}/namespaces/{namespace}";
    String mgmt = "/management/v1";
    RestRouter router = new RestRouter(audit).defaultPrefix(catalog.config().defaultWarehouse());
    Route route =
        (method, path, guard, handler) ->
            router.add(method, path, guarded(catalog, guard, handler));
    route.add(GET, "/v1/config", any, config::handleGetConfig);
    route.add(
        GET, "/v1/{prefix}/namespaces", Guards.LIST_NAMESPACES, namespaces::handleListNamespaces);
    route.add(
        POST,
        "/v1/{prefix}/namespaces",
        Guards.CREATE_NAMESPACE,
        namespaces::handleCreateNamespace);
    route.add(GET, ns, Guards.SEE_NAMESPACE, namespaces::handleLoadNamespace);
    route.add(HEAD, ns, Guards.SEE_NAMESPACE, namespaces::handleNamespaceExists);
    route.add(DELETE, ns, namespaceWrite, namespaces::handleDropNamespace);
    route.add(POST, ns + "/properties", namespaceWrite, namespaces::handleUpdateProperties);
    route.add(GET, ns + "/tables", Guards.SEE_NAMESPACE, tables::handleListTables);
    route.add(POST, ns + "/tables", namespaceWrite, tables::handleCreateTable);
    route.add(GET, ns + "/tables/{table}", read, tables::handleLoadTable);
    route.add(HEAD, ns + "/tables/{table}", read, tables::handleTableExists);
    route.add(POST, ns + "/tables/{table}", Guards.COMMIT_TABLE, tables::handleCommitTable);
    route.add(DELETE, ns + "/tables/{table}", write, tables::handleDropTable);
    route.add(GET, ns + "/tables/{table}/credentials", read, tables::handleLoadCredentials);
    route.add(GET, ClaimedLocations.PATH, read, tables::handleClaimedLocation);
    route.add(POST, ns + "/tables/{table}/metrics", read, membership::handleReportMetrics);
    route.add(POST, ns + "/register", namespaceWrite, membership::handleRegisterTable);
    route.add(POST, "/v1/{prefix}/tables/rename", Guards.RENAME, membership::handleRenameTable);
    route.add(
        POST,
        "/v1/{prefix}/transactions/commit",
        Guards.TRANSACTION,
        tables::handleCommitTransaction);
    route.add(GET, ns + "/views", Guards.SEE_NAMESPACE, views::handleListViews);
    route.add(POST, ns + "/views", namespaceWrite, views::handleCreateView);
    route.add(GET, ns + "/views/{table}", read, views::handleLoadView);
    route.add(HEAD, ns + "/views/{table}", read, views::handleViewExists);
    route.add(POST, ns + "/views/{table}", write, views::handleReplaceView);
    route.add(DELETE, ns + "/views/{table}", write, views::handleDropView);
    route.add(POST, "/v1/{prefix}/views/rename", Guards.RENAME, views::handleRenameView);
    route.add(POST, ns + "/register-view", namespaceWrite, views::handleRegisterView);
    route.add(GET, "/metrics", superuser, membership::handlePrometheus);
    route.add(
        GET,
        mgmt + "/lineage/tables/{namespace}/{table}",
        Guards.LINEAGE_TABLE,
        lineageHandlers::handleTableLineage);
    route.add(
        GET, mgmt + "/lineage/sources", Guards.LINEAGE_SOURCES, lineageHandlers::handleSources);
    route.add(GET, mgmt + "/whoami", any, management::handleWhoAmI);
    route.add(GET, mgmt + "/principals", superuser, management::handleListPrincipals);
    route.add(POST, mgmt + "/principals", superuser, management::handleCreatePrincipal);
    route.add(GET, mgmt + "/principals/{principal}", superuser, management::handleGetPrincipal);
    route.add(
        DELETE, mgmt + "/principals/{principal}", superuser, management::handleDeletePrincipal);
    route.add(
        PUT,
        mgmt + "/principals/{principal}/roles/{warehouse}",
        superuser,
        management::handleSetRole);
    route.add(
        DELETE,
        mgmt + "/principals/{principal}/roles/{warehouse}",
        superuser,
        management::handleRemoveRole);
    // Token routes check "the principal itself or a superuser" in the handler.
    route.add(POST, mgmt + "/principals/{principal}/tokens", any, tokens::handleCreateToken);
    route.add(GET, mgmt + "/principals/{principal}/tokens", any, tokens::handleListTokens);
    route.add(DELETE, mgmt + "/tokens/{token}", any, tokens::handleRevokeToken);
    // Grant routes check "manage on the target" in the handler (the target is in the body).
    String wh = mgmt + "/warehouses/{prefix}";
    route.add(GET, wh + "/grants", any, management::handleListGrants);
    route.add(POST, wh + "/grants", any, management::handleGrant);
    route.add(POST, wh + "/grants/revoke", any, management::handleRevoke);
    route.add(GET, wh + "/namespaces/{namespace}/visibility", any, management::handleGetVisibility);
    route.add(PUT, wh + "/namespaces/{namespace}/visibility", any, management::handleSetVisibility);
    return router;
  }

  private interface Route {
    void add(
        io.vertx.core.http.HttpMethod method,
        String path,
        Guards.Guard guard,
        RestRouter.Handler handler);
  }
}
