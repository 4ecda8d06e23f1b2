package dev.floe.api.http;

import static dev.floe.api.http.Guards.guarded;
import static io.vertx.core.http.HttpMethod.DELETE;
import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static io.vertx.core.http.HttpMethod.PUT;
import static org.apache.iceberg.rest.Endpoint.V1_CANCEL_TABLE_SCAN_PLAN;
import static org.apache.iceberg.rest.Endpoint.V1_COMMIT_TRANSACTION;
import static org.apache.iceberg.rest.Endpoint.V1_CREATE_NAMESPACE;
import static org.apache.iceberg.rest.Endpoint.V1_CREATE_TABLE;
import static org.apache.iceberg.rest.Endpoint.V1_CREATE_VIEW;
import static org.apache.iceberg.rest.Endpoint.V1_DELETE_NAMESPACE;
import static org.apache.iceberg.rest.Endpoint.V1_DELETE_TABLE;
import static org.apache.iceberg.rest.Endpoint.V1_DELETE_VIEW;
import static org.apache.iceberg.rest.Endpoint.V1_FETCH_TABLE_SCAN_PLAN;
import static org.apache.iceberg.rest.Endpoint.V1_FETCH_TABLE_SCAN_PLAN_TASKS;
import static org.apache.iceberg.rest.Endpoint.V1_LIST_NAMESPACES;
import static org.apache.iceberg.rest.Endpoint.V1_LIST_TABLES;
import static org.apache.iceberg.rest.Endpoint.V1_LIST_VIEWS;
import static org.apache.iceberg.rest.Endpoint.V1_LOAD_NAMESPACE;
import static org.apache.iceberg.rest.Endpoint.V1_LOAD_TABLE;
import static org.apache.iceberg.rest.Endpoint.V1_LOAD_VIEW;
import static org.apache.iceberg.rest.Endpoint.V1_NAMESPACE_EXISTS;
import static org.apache.iceberg.rest.Endpoint.V1_REGISTER_TABLE;
import static org.apache.iceberg.rest.Endpoint.V1_REGISTER_VIEW;
import static org.apache.iceberg.rest.Endpoint.V1_RENAME_TABLE;
import static org.apache.iceberg.rest.Endpoint.V1_RENAME_VIEW;
import static org.apache.iceberg.rest.Endpoint.V1_REPORT_METRICS;
import static org.apache.iceberg.rest.Endpoint.V1_SUBMIT_TABLE_SCAN_PLAN;
import static org.apache.iceberg.rest.Endpoint.V1_TABLE_CREDENTIALS;
import static org.apache.iceberg.rest.Endpoint.V1_TABLE_EXISTS;
import static org.apache.iceberg.rest.Endpoint.V1_TABLE_REMOTE_SIGN;
import static org.apache.iceberg.rest.Endpoint.V1_UPDATE_NAMESPACE;
import static org.apache.iceberg.rest.Endpoint.V1_UPDATE_TABLE;
import static org.apache.iceberg.rest.Endpoint.V1_UPDATE_VIEW;
import static org.apache.iceberg.rest.Endpoint.V1_VIEW_EXISTS;

import dev.floe.api.planning.ScanPlanner;
import dev.floe.events.access.AccessEntries.Action;
import dev.floe.projections.audit.RecentAudit;
import dev.floe.projections.events.EventLogPages;
import dev.floe.projections.events.EventTail;
import dev.floe.projections.lineage.LineageIndex;
import io.vertx.core.http.HttpMethod;
import org.apache.iceberg.rest.Endpoint;

/**
 * The routes Floe serves: the Iceberg REST routes, each added as the {@link Endpoint} it serves
 * (which is what {@link ConfigHandler} advertises), and the management API, each behind the guard
 * that says who may use it ({@link Guards}).
 */
public final class IcebergRoutes {
  /** The most data manifests one scan planning request reads: more are split into plan tasks. */
  static final int MANIFESTS_PER_PLAN_TASK = 32;

  /** The bound of the manifests scan planning keeps in memory, per storage. */
  static final long MANIFEST_CACHE_BYTES = 128L * 1024 * 1024;

  private IcebergRoutes() {}

  public static RestRouter router(
      CatalogContext catalog,
      AuditLog audit,
      LineageIndex lineage,
      EventLogPages events,
      EventTail tail,
      RecentAudit recentAudit,
      ManagementHandlers.AccessSync sync) {
    RestRouter router = new RestRouter(audit).defaultPrefix(catalog.config().defaultWarehouse());
    LineageHandlers lineageHandlers = new LineageHandlers(catalog, lineage);
    ConfigHandler config = new ConfigHandler(catalog, router::endpoints);
    NamespaceHandlers namespaces = new NamespaceHandlers(catalog);
    TableHandlers tables = new TableHandlers(catalog);
    TableMembershipHandlers membership = new TableMembershipHandlers(catalog);
    ViewHandlers views = new ViewHandlers(catalog);
    ManagementHandlers management = new ManagementHandlers(catalog, sync);
    TokenHandlers tokens = new TokenHandlers(catalog, sync);
    EventsHandlers eventPages = new EventsHandlers(catalog, events, tail);
    AuditHandlers audits = new AuditHandlers(catalog, recentAudit);
    DeletedHandlers deleted = new DeletedHandlers(catalog, management);
    Guards.Guard read = Guards.table(Action.READ);
    Guards.Guard write = Guards.table(Action.WRITE);
    Guards.Guard namespaceWrite = Guards.namespace(Action.WRITE);
    Guards.Guard any = Guards.AUTHENTICATED;
    Guards.Guard superuser = Guards.SUPERUSER;
    String mgmt = "/management/v1";
    Route route =
        (method, path, guard, handler) ->
            router.add(method, path, guarded(catalog, guard, handler));
    Iceberg iceberg =
        (endpoint, guard, handler) -> router.add(endpoint, guarded(catalog, guard, handler));
    route.add(GET, "/v1/config", any, config::handleGetConfig);
    iceberg.add(V1_LIST_NAMESPACES, Guards.LIST_NAMESPACES, namespaces::handleListNamespaces);
    iceberg.add(V1_CREATE_NAMESPACE, Guards.CREATE_NAMESPACE, namespaces::handleCreateNamespace);
    iceberg.add(V1_LOAD_NAMESPACE, Guards.SEE_NAMESPACE, namespaces::handleLoadNamespace);
    iceberg.add(V1_NAMESPACE_EXISTS, Guards.SEE_NAMESPACE, namespaces::handleNamespaceExists);
    iceberg.add(V1_DELETE_NAMESPACE, namespaceWrite, namespaces::handleDropNamespace);
    iceberg.add(V1_UPDATE_NAMESPACE, namespaceWrite, namespaces::handleUpdateProperties);
    iceberg.add(V1_LIST_TABLES, Guards.SEE_NAMESPACE, tables::handleListTables);
    iceberg.add(V1_CREATE_TABLE, namespaceWrite, tables::handleCreateTable);
    iceberg.add(V1_LOAD_TABLE, read, tables::handleLoadTable);
    iceberg.add(V1_TABLE_EXISTS, read, tables::handleTableExists);
    iceberg.add(V1_UPDATE_TABLE, Guards.COMMIT_TABLE, tables::handleCommitTable);
    iceberg.add(V1_DELETE_TABLE, write, tables::handleDropTable);
    iceberg.add(V1_TABLE_CREDENTIALS, read, tables::handleLoadCredentials);
    if (catalog.storage().signer().anyEnabled()) {
      iceberg.add(
          V1_TABLE_REMOTE_SIGN, Guards.SIGN, new RemoteSignHandler(catalog, audit)::handleSign);
    }
    ScanPlanHandlers plans =
        new ScanPlanHandlers(
            catalog,
            new ScanPlanner(
                catalog.metadataFiles()::io,
                catalog.metadataFiles().locations(),
                MANIFESTS_PER_PLAN_TASK,
                MANIFEST_CACHE_BYTES));
    iceberg.add(V1_SUBMIT_TABLE_SCAN_PLAN, read, plans::handlePlan);
    iceberg.add(V1_FETCH_TABLE_SCAN_PLAN, read, plans::handleFetchPlan);
    iceberg.add(V1_CANCEL_TABLE_SCAN_PLAN, read, plans::handleCancelPlan);
    iceberg.add(V1_FETCH_TABLE_SCAN_PLAN_TASKS, read, plans::handleTasks);
    OwnerReadHandlers owner = new OwnerReadHandlers(catalog);
    route.add(GET, OwnerReads.CLAIMED_PATH, read, owner::handleClaimedLocation);
    route.add(GET, OwnerReads.HOLDER_PATH, read, owner::handleHolder);
    iceberg.add(V1_REPORT_METRICS, read, membership::handleReportMetrics);
    iceberg.add(V1_REGISTER_TABLE, namespaceWrite, membership::handleRegisterTable);
    iceberg.add(V1_RENAME_TABLE, Guards.RENAME, membership::handleRenameTable);
    iceberg.add(V1_COMMIT_TRANSACTION, Guards.TRANSACTION, tables::handleCommitTransaction);
    iceberg.add(V1_LIST_VIEWS, Guards.SEE_NAMESPACE, views::handleListViews);
    iceberg.add(V1_CREATE_VIEW, namespaceWrite, views::handleCreateView);
    iceberg.add(V1_LOAD_VIEW, read, views::handleLoadView);
    iceberg.add(V1_VIEW_EXISTS, read, views::handleViewExists);
    iceberg.add(V1_UPDATE_VIEW, write, views::handleReplaceView);
    iceberg.add(V1_DELETE_VIEW, write, views::handleDropView);
    iceberg.add(V1_RENAME_VIEW, Guards.RENAME, views::handleRenameView);
    iceberg.add(
        EventsHandlers.V1_EVENTS, ManagementGuards.SEES_WAREHOUSE, eventPages::handleEvents);
    iceberg.add(
        EventsHandlers.V1_EVENTS_STREAM, ManagementGuards.SEES_WAREHOUSE, eventPages::handleStream);
    iceberg.add(V1_REGISTER_VIEW, namespaceWrite, views::handleRegisterView);
    route.add(GET, "/metrics", Guards.superuser("read /metrics"), membership::handlePrometheus);
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
    Guards.Guard ownTokens = ManagementGuards.TOKENS_OF_PRINCIPAL;
    route.add(POST, mgmt + "/principals/{principal}/tokens", ownTokens, tokens::handleCreateToken);
    route.add(GET, mgmt + "/principals/{principal}/tokens", ownTokens, tokens::handleListTokens);
    route.add(
        DELETE, mgmt + "/tokens/{token}", ManagementGuards.TOKEN_OWNER, tokens::handleRevokeToken);
    String wh = mgmt + "/warehouses/{prefix}";
    // Anyone signed in: the answer holds the caller's own grants and those on what it manages.
    route.add(GET, wh + "/grants", any, management::handleListGrants);
    Guards.Guard grantTarget = ManagementGuards.MANAGE_GRANT_TARGET;
    route.add(POST, wh + "/grants", grantTarget, management::handleGrant);
    route.add(POST, wh + "/grants/revoke", grantTarget, management::handleRevoke);
    String visibility = wh + "/namespaces/{namespace}/visibility";
    route.add(GET, visibility, Guards.SEE_NAMESPACE, management::handleGetVisibility);
    route.add(
        PUT, visibility, ManagementGuards.MANAGE_PATH_NAMESPACE, management::handleSetVisibility);
    route.add(GET, wh + "/audit", ManagementGuards.WAREHOUSE_ADMIN, audits::handleAudit);
    route.add(GET, wh + "/data-access", ManagementGuards.WAREHOUSE_ADMIN, audits::handleDataAccess);
    MaintenanceHandlers maintenance = new MaintenanceHandlers(catalog, lineage);
    String maintained = wh + "/namespaces/{namespace}/tables/{table}";
    Guards.Guard manageTable = ManagementGuards.MANAGE_PATH_TABLE;
    route.add(GET, maintained + "/orphan-files", manageTable, maintenance::handleOrphans);
    route.add(
        GET, maintained + "/maintenance", Guards.MAINTENANCE_STATUS, maintenance::handleStatus);
    route.add(
        POST, maintained + "/expire-snapshots", manageTable, maintenance::handleExpireSnapshots);
    route.add(
        GET,
        wh + "/deleted",
        ManagementGuards.MANAGE_QUERIED_NAMESPACE,
        deleted::handleListDeleted);
    Guards.Guard deletedTarget = ManagementGuards.MANAGE_DELETED_TARGET;
    route.add(POST, wh + "/deleted/restore", deletedTarget, deleted::handleRestore);
    route.add(POST, wh + "/deleted/expunge", deletedTarget, deleted::handleExpunge);
    return router;
  }

  private interface Route {
    void add(HttpMethod method, String path, Guards.Guard guard, RestRouter.Handler handler);
  }

  private interface Iceberg {
    void add(Endpoint endpoint, Guards.Guard guard, RestRouter.Handler handler);
  }
}
