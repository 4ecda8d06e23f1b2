package dev.floe.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.api.auth.Caller;
import dev.floe.events.FloeJson;
import dev.floe.events.access.AccessChange;
import dev.floe.events.access.AccessEntries;
import dev.floe.events.access.AccessEntries.Action;
import dev.floe.events.access.AccessEntries.GrantEntry;
import dev.floe.events.access.AccessEntries.Principal;
import dev.floe.events.access.AccessEntries.VisibilityEntry;
import dev.floe.events.command.ChangeAccessCommand;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;

/**
 * The management API ({@code /management/v1}, docs/security.md and docs/management-api.yaml):
 * principals, their warehouse roles and tokens, grants and namespace visibility ({@link
 * DeletedHandlers} has what was dropped and is kept). Every change is a command decided by the
 * processor and an event on the log; the answer waits until every instance applies it, so it holds
 * on the next request wherever that lands.
 */
public final class ManagementHandlers {
  /** Makes every instance apply the access changes committed so far. */
  public interface AccessSync {
    Future<Void> everywhere();
  }

  private final CatalogContext catalog;
  private final AccessSync sync;

  ManagementHandlers(CatalogContext catalog, AccessSync sync) {
    this.catalog = catalog;
    this.sync = sync;
  }

  Future<HttpResult> handleWhoAmI(RequestContext request) {
    Caller caller = request.caller();
    ObjectNode body = FloeJson.mapper().createObjectNode();
    body.put("principal", caller.name());
    body.put("authenticated", !caller.unrestricted());
    body.put("superuser", caller.unrestricted() || catalog.access().isSuperuser(caller.name()));
    ObjectNode roles = body.putObject("roles");
    catalog
        .access()
        .principal(caller.name())
        .ifPresent(p -> p.roles().forEach((wh, role) -> roles.put(wh, role.label())));
    // The warehouses the caller can see anything in (what the console offers to browse).
    ArrayNode warehouses = body.putArray("warehouses");
    catalog.config().warehouses().keySet().stream()
        .sorted()
        .filter(
            wh ->
                caller.unrestricted()
                    || catalog.access().isSuperuser(caller.name())
                    || catalog.access().seesAnything(caller.name(), wh))
        .forEach(warehouses::add);
    body.put("default-warehouse", catalog.config().defaultWarehouse());
    return json(200, body);
  }

  Future<HttpResult> handleListPrincipals(RequestContext request) {
    ObjectNode body = FloeJson.mapper().createObjectNode();
    ArrayNode principals = body.putArray("principals");
    catalog.access().principals().forEach(p -> principals.add(principalJson(p)));
    return json(200, body);
  }

  Future<HttpResult> handleGetPrincipal(RequestContext request) {
    String name = request.param("principal");
    Principal principal =
        catalog
            .access()
            .principal(name)
            .orElseThrow(() -> ApiException.notFound("No such principal: " + name));
    return json(200, principalJson(principal));
  }

  Future<HttpResult> handleCreatePrincipal(RequestContext request) {
    JsonNode body = request.json();
    String name = PrincipalNames.requireValid(text(body, "name", true));
    String kind = text(body, "kind", false);
    if (kind != null && !kind.equals("user") && !kind.equals("service")) {
      throw ApiException.badRequest("Invalid kind: %s (expected user or service)", kind);
    }
    AccessChange.CreatePrincipal change =
        new AccessChange.CreatePrincipal(name, kind, text(body, "email", false));
    return change(request, change)
        .map(
            v ->
                jsonResult(
                    201,
                    principalJson(new Principal(name, change.kind(), change.email(), Map.of()))));
  }

  Future<HttpResult> handleDeletePrincipal(RequestContext request) {
    return change(request, new AccessChange.DeletePrincipal(request.param("principal")))
        .map(v -> HttpResult.noContent());
  }

  Future<HttpResult> handleSetRole(RequestContext request) {
    String warehouse = roleWarehouse(request);
    AccessEntries.Role role;
    try {
      role = AccessEntries.Role.parse(text(request.json(), "role", true));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("%s", e.getMessage());
    }
    return change(request, new AccessChange.SetRole(request.param("principal"), warehouse, role))
        .map(v -> HttpResult.noContent());
  }

  Future<HttpResult> handleRemoveRole(RequestContext request) {
    String warehouse = roleWarehouse(request);
    return change(request, new AccessChange.SetRole(request.param("principal"), warehouse, null))
        .map(v -> HttpResult.noContent());
  }

  Future<HttpResult> handleListGrants(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    Caller caller = request.caller();
    boolean admin =
        caller.unrestricted()
            || catalog.access().roleAction(caller.name(), warehouse).orElse(null) == Action.MANAGE;
    ObjectNode body = FloeJson.mapper().createObjectNode();
    ArrayNode grants = body.putArray("grants");
    for (GrantEntry grant : catalog.access().grants(warehouse)) {
      // Without the admin role: the caller's own grants and those on what it manages.
      if (admin
          || grant.principal().equals(caller.name())
          || ManagementGuards.manages(
              catalog, caller, warehouse, grant.namespace(), grant.table())) {
        grants.add(grantJson(grant));
      }
    }
    List<VisibilityEntry> candidates = catalog.access().publicNamespaces(warehouse);
    // A dropped namespace keeps its visibility for a restore, but is not discoverable.
    return catalog
        .read(
            () ->
                candidates.stream()
                    .filter(v -> exists(warehouse, v.namespace()))
                    .map(VisibilityEntry::namespace)
                    .toList())
        .map(
            live -> {
              ArrayNode visible = body.putArray("public-namespaces");
              live.forEach(namespace -> visible.add(levels(namespace)));
              return jsonResult(200, body);
            });
  }

  private boolean exists(String warehouse, List<String> namespace) {
    return catalog
        .queries()
        .namespace(warehouse, Namespace.of(namespace.toArray(new String[0])))
        .isPresent();
  }

  Future<HttpResult> handleGrant(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    JsonNode body = request.json();
    List<String> namespace = namespace(body);
    String table = text(body, "table", false);
    Action action;
    try {
      action = Action.parse(text(body, "action", true));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("%s", e.getMessage());
    }
    AccessChange grant =
        new AccessChange.Grant(warehouse, text(body, "principal", true), namespace, table, action);
    return whenNamespaceExists(warehouse, namespace)
        .compose(v -> change(request, grant))
        .map(v -> HttpResult.noContent());
  }

  Future<HttpResult> handleRevoke(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    JsonNode body = request.json();
    List<String> namespace = namespace(body);
    String table = text(body, "table", false);
    return change(
            request,
            new AccessChange.Revoke(warehouse, text(body, "principal", true), namespace, table))
        .map(v -> HttpResult.noContent());
  }

  Future<HttpResult> handleGetVisibility(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    Namespace namespace = request.namespace();
    ObjectNode body = FloeJson.mapper().createObjectNode();
    body.set("namespace", levels(Guards.levels(namespace)));
    body.put(
        "visibility",
        catalog.access().publicNamespaces(warehouse).stream()
                .anyMatch(v -> v.namespace().equals(Guards.levels(namespace)))
            ? AccessEntries.Visibility.AUTHENTICATED_PUBLIC.name()
            : AccessEntries.Visibility.PRIVATE.name());
    return catalog
        .read(() -> exists(warehouse, Guards.levels(namespace)))
        .map(
            found -> {
              if (!found) {
                throw ApiException.noSuchNamespace(namespace);
              }
              return jsonResult(200, body);
            });
  }

  Future<HttpResult> handleSetVisibility(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    List<String> namespace = Guards.levels(request.namespace());
    AccessEntries.Visibility visibility;
    try {
      visibility = AccessEntries.Visibility.parse(text(request.json(), "visibility", true));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("%s", e.getMessage());
    }
    return whenNamespaceExists(warehouse, namespace)
        .compose(
            v -> change(request, new AccessChange.SetVisibility(warehouse, namespace, visibility)))
        .map(v -> HttpResult.noContent());
  }

  /**
   * Fails with 404 when the namespace does not exist: a grant or a visibility is set on a namespace
   * that is there (a table's name may still be free; both outlive a drop, for a restore). A revoke
   * needs no namespace, so that what a dropped namespace left can be taken away.
   */
  private Future<Void> whenNamespaceExists(String warehouse, List<String> namespace) {
    return catalog
        .read(() -> exists(warehouse, namespace))
        .map(
            found -> {
              if (!found) {
                throw ApiException.noSuchNamespace(Namespace.of(namespace.toArray(new String[0])));
              }
              return null;
            });
  }

  private Future<Void> change(RequestContext request, AccessChange change) {
    return catalog
        .submit(new ChangeAccessCommand(catalog.header(request), change))
        .compose(reply -> sync.everywhere());
  }

  private String roleWarehouse(RequestContext request) {
    String warehouse = request.param("warehouse");
    if (!AccessEntries.ALL_WAREHOUSES.equals(warehouse)
        && catalog.config().warehouseRoot(warehouse) == null) {
      throw ApiException.noSuchWarehouse(warehouse);
    }
    return warehouse;
  }

  static List<String> namespace(JsonNode body) {
    JsonNode node = body.get("namespace");
    if (node == null || !node.isArray() || node.isEmpty()) {
      throw ApiException.badRequest("Invalid namespace: expected a non-empty array of levels");
    }
    List<String> levels = new ArrayList<>();
    for (JsonNode level : node) {
      if (!level.isTextual()) {
        throw ApiException.badRequest("Invalid namespace: every level must be a string");
      }
      String problem = Names.problem(level.asText());
      if (problem != null) {
        throw ApiException.badRequest("Invalid namespace level: %s", problem);
      }
      levels.add(level.asText());
    }
    return levels;
  }

  static String text(JsonNode body, String field, boolean required) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      if (required) {
        throw ApiException.badRequest("Missing field: %s", field);
      }
      return null;
    }
    if (!node.isTextual() || node.asText().isEmpty()) {
      throw ApiException.badRequest("Invalid %s: must be a non-empty string", field);
    }
    return node.asText();
  }

  private static ObjectNode principalJson(Principal principal) {
    ObjectNode node = FloeJson.mapper().createObjectNode();
    node.put("name", principal.name());
    node.put("kind", principal.kind());
    if (principal.email() != null) {
      node.put("email", principal.email());
    }
    ObjectNode roles = node.putObject("roles");
    principal.roles().forEach((wh, role) -> roles.put(wh, role.label()));
    return node;
  }

  private static ObjectNode grantJson(GrantEntry grant) {
    ObjectNode node = FloeJson.mapper().createObjectNode();
    node.put("principal", grant.principal());
    node.set("namespace", levels(grant.namespace()));
    if (grant.table() != null) {
      node.put("table", grant.table());
    }
    node.put("action", grant.action().label());
    return node;
  }

  static ArrayNode levels(List<String> namespace) {
    ArrayNode array = FloeJson.mapper().createArrayNode();
    namespace.forEach(array::add);
    return array;
  }

  private static Future<HttpResult> json(int status, ObjectNode body) {
    return Future.succeededFuture(jsonResult(status, body));
  }

  static HttpResult jsonResult(int status, ObjectNode body) {
    return new HttpResult(status, FloeJson.toBytes(body), Map.of());
  }
}
