package dev.floe.api.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.AuditRecord;
import dev.floe.events.DataAccessRecord;
import dev.floe.events.FloeJson;
import dev.floe.projections.audit.RecentAudit;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * {@code GET /management/v1/warehouses/{w}/audit}: the newest request outcomes recorded on {@code
 * floe.audit} for the warehouse (changes, denials, failures), for its admins: {@code
 * ?status=403,5xx} and {@code ?principal=} narrow them, {@code ?limit=} (at most 1000, default 100)
 * caps them.
 */
final class AuditHandlers {
  static final int DEFAULT_LIMIT = 100;
  static final int MAX_LIMIT = 1000;

  private final CatalogContext catalog;
  private final RecentAudit audit;

  AuditHandlers(CatalogContext catalog, RecentAudit audit) {
    this.catalog = catalog;
    this.audit = audit;
  }

  Future<HttpResult> handleAudit(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    List<String> statuses = statuses(request.query("status"));
    String principal = request.query("principal");
    int limit = limit(request.query("limit"));
    Predicate<AuditRecord> matches =
        record ->
            warehouse.equals(record.warehouse())
                && (principal == null || principal.equals(record.principal()))
                && (statuses.isEmpty()
                    || statuses.stream().anyMatch(s -> matches(s, record.status())));
    return catalog.read(() -> audit.newest(matches, limit)).map(AuditHandlers::answer);
  }

  /**
   * {@code GET /management/v1/warehouses/{w}/data-access}: the newest counts of the engines' S3
   * requests that the catalog signed and refused, per principal, table, operation and minute;
   * {@code ?principal=} and {@code ?table=ns.t} narrow them, {@code ?limit=} caps them.
   */
  Future<HttpResult> handleDataAccess(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    String principal = request.query("principal");
    String table = request.query("table");
    int limit = limit(request.query("limit"));
    Predicate<DataAccessRecord> matches =
        record ->
            warehouse.equals(record.warehouse())
                && (principal == null || principal.equals(record.principal()))
                && (table == null || table.equals(record.table()));
    return catalog.read(() -> audit.newestDataAccess(matches, limit)).map(AuditHandlers::answer);
  }

  /** {@code {"records": [...]}}. */
  private static HttpResult answer(List<?> records) {
    ObjectNode body = FloeJson.mapper().createObjectNode();
    ArrayNode list = body.putArray("records");
    records.forEach(r -> list.add(FloeJson.mapper().valueToTree(r)));
    return new HttpResult(200, FloeJson.toBytes(body), Map.of());
  }

  private static boolean matches(String status, int actual) {
    return status.endsWith("xx")
        ? status.charAt(0) - '0' == actual / 100
        : Integer.parseInt(status) == actual;
  }

  private static List<String> statuses(String value) {
    List<String> statuses = new ArrayList<>();
    if (value == null || value.isEmpty()) {
      return statuses;
    }
    for (String status : value.split(",")) {
      if (!status.matches("[1-5](\\d\\d|xx)")) {
        throw ApiException.badRequest("Invalid status: %s (e.g. 403 or 5xx)", status);
      }
      statuses.add(status);
    }
    return statuses;
  }

  private static int limit(String value) {
    if (value == null || value.isEmpty()) {
      return DEFAULT_LIMIT;
    }
    try {
      int limit = Integer.parseInt(value);
      if (limit >= 1) {
        return Math.min(limit, MAX_LIMIT);
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw ApiException.badRequest("Invalid limit: %s (a number from 1)", value);
  }
}
