package dev.floe.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.api.auth.Caller;
import dev.floe.events.access.AccessEntries;
import dev.floe.events.access.AccessEntries.Action;
import dev.floe.events.access.AccessEntries.Token;
import dev.floe.projections.access.AccessSnapshot;
import java.util.List;

/**
 * What each route of the management API and the events endpoint needs beyond being signed in,
 * checked before its handler runs like the rest of {@link Guards}: the route table says who may do
 * what. A target named in the body is read from the parsed body (400 when it is malformed).
 */
final class ManagementGuards {
  private ManagementGuards() {}

  /** A principal's tokens (create, list): the principal of the path itself, or a superuser. */
  static final Guards.Guard TOKENS_OF_PRINCIPAL =
      (catalog, request) -> selfOrSuperuser(catalog, request, request.param("principal"));

  /** Revoking a token: its principal, or a superuser; 404 for a token that does not exist. */
  static final Guards.Guard TOKEN_OWNER =
      (catalog, request) -> {
        String id = request.param("token");
        Token token =
            catalog
                .access()
                .token(id)
                .orElseThrow(() -> ApiException.notFound("No such token: " + id));
        selfOrSuperuser(catalog, request, token.principal());
      };

  /** A grant or a revoke: {@code manage} on the target the body names. */
  static final Guards.Guard MANAGE_GRANT_TARGET =
      (catalog, request) -> {
        JsonNode body = request.json();
        requireManage(
            catalog,
            request,
            ManagementHandlers.namespace(body),
            ManagementHandlers.text(body, "table", false));
      };

  /** Setting a namespace's visibility: {@code manage} on the namespace of the path. */
  static final Guards.Guard MANAGE_PATH_NAMESPACE =
      (catalog, request) ->
          requireManage(catalog, request, Guards.levels(request.namespace()), null);

  /**
   * The dropped entities of {@code ?namespace=}: {@code manage} on it. Without it, anyone: the list
   * holds what the caller manages.
   */
  static final Guards.Guard MANAGE_QUERIED_NAMESPACE =
      (catalog, request) -> {
        String param = request.query("namespace");
        if (param != null) {
          requireManage(
              catalog, request, Guards.levels(RequestContext.parseNamespace(param)), null);
        }
      };

  /**
   * A restore or an expunge: {@code manage} on the namespace of what the body names (for a dropped
   * namespace, that namespace itself).
   */
  static final Guards.Guard MANAGE_DELETED_TARGET =
      (catalog, request) ->
          requireManage(catalog, request, DeletedHandlers.target(request.json()).managed(), null);

  /** A table's maintenance: {@code manage} on the table of the path. */
  static final Guards.Guard MANAGE_PATH_TABLE =
      (catalog, request) ->
          requireManage(
              catalog, request, Guards.levels(request.namespace()), request.table().name());

  /** A warehouse's audit: its {@code admin} role, or a superuser. */
  static final Guards.Guard WAREHOUSE_ADMIN =
      inWarehouse(
          (access, caller, warehouse) ->
              access.roleAction(caller, warehouse).orElse(null) == Action.MANAGE,
          "read the audit of warehouse ");

  /**
   * A warehouse's events: seeing anything in it. Each event is then served only if the caller may
   * read what it shows ({@code ServedEvents}).
   */
  static final Guards.Guard SEES_WAREHOUSE =
      inWarehouse(AccessSnapshot::seesAnything, "read the events of warehouse ");

  /** What a principal holds in a warehouse. */
  @FunctionalInterface
  private interface WarehouseRight {
    boolean holds(AccessSnapshot access, String principal, String warehouse);
  }

  /** A right in the request's warehouse, which a superuser holds everywhere. */
  private static Guards.Guard inWarehouse(WarehouseRight right, String refused) {
    return (catalog, request) -> {
      String warehouse = catalog.warehouse(request);
      Caller caller = request.caller();
      AccessSnapshot access = catalog.access();
      if (!caller.unrestricted()
          && !access.isSuperuser(caller.name())
          && !right.holds(access, caller.name(), warehouse)) {
        throw ApiException.forbidden(caller.name(), refused + warehouse);
      }
    };
  }

  /** Whether the caller holds {@code manage} on a namespace (or table) of the warehouse. */
  static boolean manages(
      CatalogContext catalog,
      Caller caller,
      String warehouse,
      List<String> namespace,
      String table) {
    Action level = catalog.access().level(caller.name(), warehouse, namespace, table);
    return caller.unrestricted() || (level != null && level.covers(Action.MANAGE));
  }

  private static void requireManage(
      CatalogContext catalog, RequestContext request, List<String> namespace, String table) {
    String warehouse = catalog.warehouse(request);
    Caller caller = request.caller();
    if (!manages(catalog, caller, warehouse, namespace, table)) {
      throw ApiException.forbidden(
          caller.name(), "manage " + AccessEntries.target(namespace, table));
    }
  }

  private static void selfOrSuperuser(
      CatalogContext catalog, RequestContext request, String principal) {
    Caller caller = request.caller();
    if (!caller.unrestricted()
        && !caller.name().equals(principal)
        && !catalog.access().isSuperuser(caller.name())) {
      throw ApiException.forbidden(caller.name(), "manage the tokens of " + principal);
    }
  }
}
