package dev.floe.api.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import dev.floe.projections.lineage.LineageIndex;
import io.vertx.core.Future;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * {@code GET /management/v1/lineage/tables/{namespace}/{table}} (a table's sources per snapshot)
 * and {@code GET /management/v1/lineage/sources?repo=…} (tables derived from a source), both with
 * an optional {@code ?warehouse=} (default: the default warehouse).
 */
final class LineageHandlers {
  private final CatalogContext catalog;
  private final LineageIndex lineage;

  LineageHandlers(CatalogContext catalog, LineageIndex lineage) {
    this.catalog = catalog;
    this.lineage = lineage;
  }

  Future<HttpResult> handleTableLineage(RequestContext request) {
    String warehouse = warehouseParam(catalog, request);
    TableIdentifier table = request.table();
    LineageIndex.TableLineage found =
        lineage.table(warehouse, table).orElseThrow(() -> ApiException.noSuchTable(table));
    return Future.succeededFuture(HttpResult.raw(bytes(toJson(found))));
  }

  Future<HttpResult> handleSources(RequestContext request) {
    String repo = request.query("repo");
    if (repo == null || repo.isEmpty()) {
      throw ApiException.badRequest("Missing query parameter: repo");
    }
    String warehouse = warehouseParam(catalog, request);
    ObjectNode body = FloeJson.mapper().createObjectNode();
    body.put("repo", repo);
    ArrayNode tables = body.putArray("tables");
    lineage.derivedFrom(repo).stream()
        .filter(l -> l.warehouse().equals(warehouse))
        .forEach(l -> tables.add(toJson(l)));
    return Future.succeededFuture(HttpResult.raw(bytes(body)));
  }

  /** {@code ?warehouse=}, or the default warehouse; 404 for an unknown one. */
  static String warehouseParam(CatalogContext catalog, RequestContext request) {
    String warehouse = request.query("warehouse");
    String name =
        warehouse == null || warehouse.isEmpty() ? catalog.config().defaultWarehouse() : warehouse;
    if (catalog.config().warehouseRoot(name) == null) {
      throw ApiException.noSuchWarehouse(name);
    }
    return name;
  }

  private static ObjectNode toJson(LineageIndex.TableLineage lineage) {
    ObjectNode node = FloeJson.mapper().createObjectNode();
    node.put("warehouse", lineage.warehouse());
    ObjectNode table = node.putObject("table");
    ArrayNode namespace = table.putArray("namespace");
    for (String level : lineage.table().namespace().levels()) {
      namespace.add(level);
    }
    table.put("name", lineage.table().name());
    ArrayNode snapshots = node.putArray("snapshots");
    for (LineageIndex.SnapshotLineage snapshot : lineage.snapshots()) {
      ObjectNode s = snapshots.addObject();
      s.put("snapshot-id", snapshot.snapshotId());
      s.put("timestamp-ms", snapshot.timestampMillis());
      ObjectNode sources = s.putObject("sources");
      snapshot
          .sources()
          .forEach((k, v) -> sources.put(k.substring(LineageIndex.PREFIX.length()), v));
    }
    return node;
  }

  private static byte[] bytes(ObjectNode node) {
    try {
      return FloeJson.mapper().writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
