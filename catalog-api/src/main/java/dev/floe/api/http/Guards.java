package dev.floe.api.http;

import dev.floe.api.auth.Caller;
import dev.floe.events.access.AccessEntries.Action;
import dev.floe.projections.access.AccessSnapshot;
import java.util.Arrays;
import java.util.List;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * What each route needs, checked before its handler runs: an unknown warehouse is 404 first, then a
 * caller without the right is 403 whether or not the entity exists (the answer reveals nothing the
 * caller may not see). Roles bypass grants; {@link AccessSnapshot} says how grants and public
 * namespaces combine.
 */
final class Guards {
  /** Throws {@link ApiException} (403, 404, 400) when the request may not go on. */
  interface Guard {
    void check(CatalogContext catalog, RequestContext request);
  }

  private Guards() {}

  static RestRouter.Handler guarded(
      CatalogContext catalog, Guard guard, RestRouter.Handler handler) {
    return request -> {
      guard.check(catalog, request);
      return handler.handle(request);
    };
  }

  /**
   * Where the caller holds {@code manage} in the warehouse (see {@link
   * AccessSnapshot#managedNamespaces}); everywhere for an unrestricted caller.
   */
  static List<List<String>> managedNamespaces(
      CatalogContext catalog, RequestContext request, String warehouse) {
    Caller caller = request.caller();
    return caller.unrestricted()
        ? List.of(List.of())
        : catalog.access().managedNamespaces(caller.name(), warehouse);
  }

  /** Any authenticated caller. */
  static final Guard AUTHENTICATED = (catalog, request) -> {};

  /** Principals and tokens: the admin role on every warehouse ({@code *}). */
  static final Guard SUPERUSER = superuser("manage principals and tokens");

  /**
   * A superuser's right (the admin role on every warehouse, {@code *}); a refusal says what the
   * caller tried to do and which right it needs.
   */
  static Guard superuser(String action) {
    return (catalog, request) -> {
      Caller caller = request.caller();
      if (!caller.unrestricted() && !catalog.access().isSuperuser(caller.name())) {
        throw ApiException.forbidden(
            caller.name(), action + " (a superuser's right: the admin role on warehouse *)");
      }
    };
  }

  /** Load or probe a namespace: it must be visible. */
  static final Guard SEE_NAMESPACE =
      (catalog, request) -> {
        String warehouse = catalog.warehouse(request);
        Namespace namespace = request.namespace();
        if (!canSee(catalog, request, warehouse, namespace)) {
          throw ApiException.forbidden(request.principalName(), "see namespace " + namespace);
        }
      };

  /**
   * List namespaces: under a visible parent, or at the top when the caller can see anything in the
   * warehouse (a caller who can see nothing gets 403, not an empty list).
   */
  static final Guard LIST_NAMESPACES =
      (catalog, request) -> {
        String warehouse = catalog.warehouse(request);
        Caller caller = request.caller();
        if (caller.unrestricted()) {
          return;
        }
        String parent = request.query("parent");
        if (parent == null || parent.isEmpty()) {
          if (!catalog.access().seesAnything(caller.name(), warehouse)) {
            throw ApiException.forbidden(caller.name(), "list namespaces in " + warehouse);
          }
        } else if (!canSee(catalog, request, warehouse, RequestContext.parseNamespace(parent))) {
          throw ApiException.forbidden(caller.name(), "list namespaces in " + parent);
        }
      };

  /** Create a namespace: write on its parent, or a writer role for a top-level one. */
  static final Guard CREATE_NAMESPACE =
      (catalog, request) -> {
        String warehouse = catalog.warehouse(request);
        Namespace namespace = request.body(CreateNamespaceRequest.class).namespace();
        String[] levels = namespace.levels();
        requireNamespace(
            catalog,
            request,
            warehouse,
            Namespace.of(Arrays.copyOf(levels, Math.max(0, levels.length - 1))),
            Action.WRITE,
            "create namespace " + namespace);
      };

  static Guard namespace(Action action) {
    return (catalog, request) -> {
      String warehouse = catalog.warehouse(request);
      Namespace namespace = request.namespace();
      requireNamespace(
          catalog,
          request,
          warehouse,
          namespace,
          action,
          action.label() + " namespace " + namespace);
    };
  }

  static Guard table(Action action) {
    return (catalog, request) -> {
      String warehouse = catalog.warehouse(request);
      requireTable(catalog, request, warehouse, request.table(), action);
    };
  }

  /**
   * A table commit: write on the table; the commit of a create transaction ({@code assert-create})
   * also needs write on the namespace, as {@code POST …/tables} does (a grant on one table name
   * never lets its holder create tables).
   */
  static final Guard COMMIT_TABLE =
      (catalog, request) -> {
        String warehouse = catalog.warehouse(request);
        TableIdentifier table = request.table();
        requireTable(catalog, request, warehouse, table, Action.WRITE);
        UpdateTableRequest body = request.body(UpdateTableRequest.class);
        if (body.requirements().stream()
            .anyMatch(UpdateRequirement.AssertTableDoesNotExist.class::isInstance)) {
          requireNamespace(
              catalog, request, warehouse, table.namespace(), Action.WRITE, "create " + table);
        }
      };

  /**
   * Sign an S3 request for a table: read on it for a {@code GET} or {@code HEAD}, write for
   * anything else (the signer checks again what the request reaches).
   */
  static final Guard SIGN =
      (catalog, request) -> {
        boolean writes = RemoteSigner.writes(request.body(RemoteSignRequest.class).method());
        requireTable(
            catalog,
            request,
            catalog.warehouse(request),
            request.table(),
            writes ? Action.WRITE : Action.READ);
      };

  /** Rename: write on the source, and write on the destination's namespace. */
  static final Guard RENAME =
      (catalog, request) -> {
        String warehouse = catalog.warehouse(request);
        RenameTableRequest body = request.body(RenameTableRequest.class);
        requireTable(catalog, request, warehouse, body.source(), Action.WRITE);
        requireNamespace(
            catalog,
            request,
            warehouse,
            body.destination().namespace(),
            Action.WRITE,
            "create " + body.destination());
      };

  /** A multi-table transaction: write on every table in it. */
  static final Guard TRANSACTION =
      (catalog, request) -> {
        String warehouse = catalog.warehouse(request);
        for (UpdateTableRequest change :
            request.body(CommitTransactionRequest.class).tableChanges()) {
          if (change.identifier() != null) {
            requireTable(catalog, request, warehouse, change.identifier(), Action.WRITE);
          }
        }
      };

  /** A table's maintenance status on the management API: read on it. */
  static final Guard MAINTENANCE_STATUS =
      (catalog, request) ->
          requireTable(catalog, request, catalog.warehouse(request), request.table(), Action.READ);

  /** Lineage of one table ({@code ?warehouse=}, default warehouse): read on it. */
  static final Guard LINEAGE_TABLE =
      (catalog, request) -> {
        String warehouse = LineageHandlers.warehouseParam(catalog, request);
        requireTable(catalog, request, warehouse, request.table(), Action.READ);
      };

  /** Tables derived from a source, across the warehouse: a role in the warehouse. */
  static final Guard LINEAGE_SOURCES =
      (catalog, request) -> {
        String warehouse = LineageHandlers.warehouseParam(catalog, request);
        Caller caller = request.caller();
        if (!caller.unrestricted()
            && catalog.access().roleAction(caller.name(), warehouse).isEmpty()) {
          throw ApiException.forbidden(caller.name(), "search lineage in " + warehouse);
        }
      };

  /** The caller may write the table: what vended credentials may do follows from it. */
  static boolean mayWrite(CatalogContext catalog, RequestContext request, TableIdentifier table) {
    Caller caller = request.caller();
    if (caller == null || caller.unrestricted()) {
      return caller != null;
    }
    return covers(
        catalog
            .access()
            .level(
                caller.name(), catalog.warehouse(request), levels(table.namespace()), table.name()),
        Action.WRITE);
  }

  /** The listed namespaces the caller may see. */
  static List<Namespace> visibleNamespaces(
      CatalogContext catalog, RequestContext request, String warehouse, List<Namespace> found) {
    if (request.caller().unrestricted()) {
      return found;
    }
    return found.stream().filter(ns -> canSee(catalog, request, warehouse, ns)).toList();
  }

  /**
   * The listed tables (or views) the caller may read: all of them with read on the namespace, else
   * only those granted one by one.
   */
  static List<TableIdentifier> readableTables(
      CatalogContext catalog,
      RequestContext request,
      String warehouse,
      Namespace namespace,
      List<TableIdentifier> found) {
    Caller caller = request.caller();
    if (caller.unrestricted()) {
      return found;
    }
    AccessSnapshot access = catalog.access();
    if (covers(access.level(caller.name(), warehouse, levels(namespace), null), Action.READ)) {
      return found;
    }
    return found.stream()
        .filter(
            t ->
                covers(
                    access.level(
                        caller.name(), warehouse, levels(namespace), grantedName(request, t)),
                    Action.READ))
        .toList();
  }

  private static boolean canSee(
      CatalogContext catalog, RequestContext request, String warehouse, Namespace namespace) {
    Caller caller = request.caller();
    return caller.unrestricted()
        || catalog.access().canSee(caller.name(), warehouse, levels(namespace));
  }

  private static void requireNamespace(
      CatalogContext catalog,
      RequestContext request,
      String warehouse,
      Namespace namespace,
      Action action,
      String what) {
    Caller caller = request.caller();
    if (caller.unrestricted()) {
      return;
    }
    AccessSnapshot access = catalog.access();
    Action level =
        namespace.isEmpty()
            ? access.roleAction(caller.name(), warehouse).orElse(null)
            : access.level(caller.name(), warehouse, levels(namespace), null);
    if (!covers(level, action)) {
      throw ApiException.forbidden(caller.name(), what);
    }
  }

  private static void requireTable(
      CatalogContext catalog,
      RequestContext request,
      String warehouse,
      TableIdentifier table,
      Action action) {
    Caller caller = request.caller();
    if (caller.unrestricted()) {
      return;
    }
    Action level =
        catalog
            .access()
            .level(
                caller.name(), warehouse, levels(table.namespace()), grantedName(request, table));
    if (!covers(level, action)) {
      throw ApiException.forbidden(caller.name(), action.label() + " " + table);
    }
  }

  /**
   * The table name whose own grants count, or null when only namespace-level rights do: in a view
   * of the past ({@code <warehouse>@<time>}) a name may have belonged to another table (one renamed
   * away or dropped since), and a grant on a name never opens the past of a different table, so the
   * past is read with the namespace's rights only (a role, a namespace grant, a public namespace).
   */
  private static String grantedName(RequestContext request, TableIdentifier table) {
    String prefix = request.warehouse();
    return prefix != null && prefix.indexOf('@') >= 0 ? null : table.name();
  }

  private static boolean covers(Action level, Action needed) {
    return level != null && level.covers(needed);
  }

  static List<String> levels(Namespace namespace) {
    return List.of(namespace.levels());
  }
}
