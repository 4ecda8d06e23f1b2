package dev.floe.api.http;

import static dev.floe.api.http.ManagementHandlers.jsonResult;
import static dev.floe.api.http.ManagementHandlers.levels;
import static dev.floe.api.http.ManagementHandlers.namespace;
import static dev.floe.api.http.ManagementHandlers.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.api.auth.Caller;
import dev.floe.events.FloeJson;
import dev.floe.events.command.ExpungeDeletedCommand;
import dev.floe.events.command.RestoreDeletedCommand;
import dev.floe.events.state.DeletedEntity;
import io.vertx.core.Future;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The management API's dropped tables, views and namespaces kept for their warehouse's recovery
 * period ({@code /management/v1/warehouses/{w}/deleted}): listed, restored and expunged by whoever
 * manages their namespace (docs/management-api.yaml).
 */
final class DeletedHandlers {
  private final CatalogContext catalog;
  private final ManagementHandlers management;

  DeletedHandlers(CatalogContext catalog, ManagementHandlers management) {
    this.catalog = catalog;
    this.management = management;
  }

  /**
   * The dropped tables and views kept for the warehouse's recovery period: with {@code
   * ?namespace=}, those of that namespace (403 without manage on it); without, those of every
   * namespace the caller manages (all of them for the warehouse admin).
   */
  Future<HttpResult> handleListDeleted(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    String param = request.query("namespace");
    Namespace namespace = param == null ? null : RequestContext.parseNamespace(param);
    Caller caller = request.caller();
    return catalog
        .read(() -> catalog.queries().deleted(warehouse, namespace))
        .map(
            found -> {
              ObjectNode body = FloeJson.mapper().createObjectNode();
              ArrayNode deleted = body.putArray("deleted");
              for (DeletedEntity entity : found) {
                if ((entity.isNamespace() || entity.state() != null)
                    && ManagementGuards.manages(
                        catalog, caller, warehouse, Guards.levels(area(entity)), null)) {
                  deleted.add(deletedJson(entity));
                }
              }
              return jsonResult(200, body);
            });
  }

  /**
   * Restores a dropped table or view kept for its recovery period, under its own name or under
   * {@code as}: 409 while a live table or view has that name, 404 when nothing kept matches.
   */
  Future<HttpResult> handleRestore(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    JsonNode body = request.json();
    Target target = target(body);
    String as = text(body, "as", false);
    if (as != null && Names.problem(as) != null) {
      throw ApiException.badRequest("Invalid as: %s", Names.problem(as));
    }
    if (as != null && target.namespace()) {
      throw ApiException.badRequest("A namespace is restored in place: as is for tables and views");
    }
    RestoreDeletedCommand command =
        new RestoreDeletedCommand(
            catalog.header(request),
            warehouse,
            target.kind(),
            target.identifier(),
            target.uuid(),
            as);
    return catalog
        .read(() -> requireRestorable(warehouse, target))
        .compose(checked -> catalog.submit(command))
        .map(
            reply -> {
              ObjectNode restored = FloeJson.mapper().createObjectNode();
              restored.put("kind", target.kind());
              if (target.namespace()) {
                restored.set("namespace", levels(target.managed()));
                ObjectNode properties = restored.putObject("properties");
                reply.properties().forEach(properties::put);
                return jsonResult(200, restored);
              }
              restored.set("namespace", levels(Guards.levels(command.target().namespace())));
              restored.put("name", command.target().name());
              restored.put("uuid", reply.restoredUuid());
              restored.put("metadata-location", reply.metadataLocation());
              return jsonResult(200, restored);
            });
  }

  /**
   * A kept table or view whose metadata file is gone (its engine deleted its files, as Spark's
   * {@code DROP TABLE … PURGE} does) cannot come back as it was: 422, and nothing changes. The one
   * checked is the one the processor picks (by uuid, else the one dropped last).
   */
  private boolean requireRestorable(String warehouse, Target target) {
    if (target.namespace()) {
      return true;
    }
    String metadata =
        catalog.queries().deleted(warehouse, target.identifier().namespace()).stream()
            .filter(e -> e.kind().equals(target.kind()) && e.state() != null)
            .filter(e -> e.identifier().equals(target.identifier()))
            .filter(e -> target.uuid() == null || target.uuid().equals(e.uuid()))
            .max(
                Comparator.comparingLong(DeletedEntity::deletedAtMs)
                    .thenComparing(DeletedEntity::dropCommandId))
            .map(e -> e.state().metadataLocation())
            .orElse(null);
    if (metadata != null && !catalog.metadataFiles().exists(metadata)) {
      throw new ApiException(
          ErrorType.UNPROCESSABLE_ENTITY,
          String.format(
              "The dropped %s %s cannot be restored: its metadata file %s is gone (its files were"
                  + " deleted outside Floe, as Spark's DROP TABLE ... PURGE does). Expunge it.",
              target.kind(), target.identifier(), metadata));
    }
    return true;
  }

  /**
   * Ends a kept table's or view's recovery period now; its files are deleted when it was dropped
   * with {@code purgeRequested} unless {@code retain-data}.
   */
  Future<HttpResult> handleExpunge(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    JsonNode body = request.json();
    Target target = target(body);
    JsonNode retain = body.get("retain-data");
    if (retain != null && !retain.isNull() && !retain.isBoolean()) {
      throw ApiException.badRequest("Invalid retain-data: must be true or false");
    }
    return catalog
        .submit(
            new ExpungeDeletedCommand(
                catalog.header(request),
                warehouse,
                target.kind(),
                target.identifier(),
                target.uuid(),
                retain != null && retain.asBoolean(false)))
        .map(reply -> HttpResult.noContent());
  }

  /** What a restore or an expunge names. */
  record Target(String kind, TableIdentifier identifier, String uuid) {
    boolean namespace() {
      return DeletedEntity.NAMESPACE.equals(kind);
    }

    /** The namespace whose {@code manage} it takes: a dropped namespace's own, else its parent. */
    List<String> managed() {
      return Guards.levels(
          namespace() ? DeletedEntity.namespaceOf(identifier) : identifier.namespace());
    }
  }

  /**
   * The namespace whose {@code manage} covers a kept entity: a namespace's own, else its parent.
   */
  private static Namespace area(DeletedEntity entity) {
    return entity.isNamespace() ? entity.droppedNamespace() : entity.identifier().namespace();
  }

  /** What the body of a restore or an expunge names; 400 when it names nothing valid. */
  static Target target(JsonNode body) {
    String kind = text(body, "kind", true);
    if (DeletedEntity.NAMESPACE.equals(kind)) {
      List<String> levels = namespace(body);
      if (body.hasNonNull("name") || body.hasNonNull("uuid")) {
        throw ApiException.badRequest(
            "A dropped namespace is named by its namespace alone: name and uuid are for tables and"
                + " views");
      }
      return new Target(
          kind, DeletedEntity.identifierOf(Namespace.of(levels.toArray(new String[0]))), null);
    }
    if (!DeletedEntity.TABLE.equals(kind) && !DeletedEntity.VIEW.equals(kind)) {
      throw ApiException.badRequest("Invalid kind: %s (expected table, view or namespace)", kind);
    }
    List<String> namespace = namespace(body);
    String name = text(body, "name", true);
    if (Names.problem(name) != null) {
      throw ApiException.badRequest("Invalid name: %s", Names.problem(name));
    }
    String uuid = text(body, "uuid", false);
    if (uuid != null) {
      try {
        uuid = UUID.fromString(uuid).toString();
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest("Invalid uuid: %s", uuid);
      }
    }
    return new Target(
        kind, TableIdentifier.of(Namespace.of(namespace.toArray(new String[0])), name), uuid);
  }

  private static ObjectNode deletedJson(DeletedEntity entity) {
    ObjectNode node = FloeJson.mapper().createObjectNode();
    node.put("kind", entity.kind());
    if (entity.isNamespace()) {
      node.set("namespace", levels(Guards.levels(entity.droppedNamespace())));
    } else {
      node.set("namespace", levels(Guards.levels(entity.identifier().namespace())));
      node.put("name", entity.identifier().name());
      node.put("uuid", entity.uuid());
    }
    node.put("deleted-at-ms", entity.deletedAtMs());
    node.put("expires-at-ms", entity.expiresAtMs());
    node.put("deleted-by", entity.deletedBy());
    node.put("purge-requested", entity.purgeRequested());
    return node;
  }
}
