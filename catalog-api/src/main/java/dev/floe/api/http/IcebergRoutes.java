package dev.floe.api.http;

import static io.vertx.core.http.HttpMethod.DELETE;
import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.HEAD;
import static io.vertx.core.http.HttpMethod.POST;

/** The Iceberg REST routes Floe serves (the same set {@link ConfigHandler} advertises). */
public final class IcebergRoutes {
  private IcebergRoutes() {}

  public static RestRouter router(
      CatalogContext catalog, AuditLog audit, dev.floe.projections.lineage.LineageIndex lineage) {
    LineageHandlers lineageHandlers = new LineageHandlers(catalog, lineage);
    ConfigHandler config = new ConfigHandler(catalog);
    NamespaceHandlers namespaces = new NamespaceHandlers(catalog);
    TableHandlers tables = new TableHandlers(catalog);
    TableMembershipHandlers membership = new TableMembershipHandlers(catalog);
    ViewHandlers views = new ViewHandlers(catalog);
    String ns = "/v1/{prefix}/namespaces/{namespace}";
    return new RestRouter(audit)
        .add(GET, "/v1/config", config::handleGetConfig)
        .add(GET, "/v1/{prefix}/namespaces", namespaces::handleListNamespaces)
        .add(POST, "/v1/{prefix}/namespaces", namespaces::handleCreateNamespace)
        .add(GET, ns, namespaces::handleLoadNamespace)
        .add(HEAD, ns, namespaces::handleNamespaceExists)
        .add(DELETE, ns, namespaces::handleDropNamespace)
        .add(POST, ns + "/properties", namespaces::handleUpdateProperties)
        .add(GET, ns + "/tables", tables::handleListTables)
        .add(POST, ns + "/tables", tables::handleCreateTable)
        .add(GET, ns + "/tables/{table}", tables::handleLoadTable)
        .add(HEAD, ns + "/tables/{table}", tables::handleTableExists)
        .add(POST, ns + "/tables/{table}", tables::handleCommitTable)
        .add(DELETE, ns + "/tables/{table}", tables::handleDropTable)
        .add(GET, ns + "/tables/{table}/credentials", tables::handleLoadCredentials)
        .add(POST, ns + "/tables/{table}/metrics", membership::handleReportMetrics)
        .add(POST, ns + "/register", membership::handleRegisterTable)
        .add(POST, "/v1/{prefix}/tables/rename", membership::handleRenameTable)
        .add(POST, "/v1/{prefix}/transactions/commit", tables::handleCommitTransaction)
        .add(GET, ns + "/views", views::handleListViews)
        .add(POST, ns + "/views", views::handleCreateView)
        .add(GET, ns + "/views/{table}", views::handleLoadView)
        .add(HEAD, ns + "/views/{table}", views::handleViewExists)
        .add(POST, ns + "/views/{table}", views::handleReplaceView)
        .add(DELETE, ns + "/views/{table}", views::handleDropView)
        .add(POST, "/v1/{prefix}/views/rename", views::handleRenameView)
        .add(POST, ns + "/register-view", views::handleRegisterView)
        .add(GET, "/metrics", membership::handlePrometheus)
        .add(
            GET,
            "/management/v1/lineage/tables/{namespace}/{table}",
            lineageHandlers::handleTableLineage)
        .add(GET, "/management/v1/lineage/sources", lineageHandlers::handleSources);
  }
}
