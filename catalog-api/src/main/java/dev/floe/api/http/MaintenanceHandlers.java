package dev.floe.api.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.api.maintenance.OrphanFiles;
import dev.floe.events.FloeJson;
import dev.floe.events.state.TableState;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Table maintenance on the management API: {@code GET
 * /management/v1/warehouses/{w}/namespaces/{ns}/tables/{t}/orphan-files}, the files under the
 * table's locations that its metadata no longer reaches ({@link OrphanFiles}), older than {@code
 * older-than} (an ISO-8601 duration, 3 days by default, as Iceberg's own orphan removal). A report:
 * nothing is deleted. Guarded by {@code manage} on the table.
 */
final class MaintenanceHandlers {
  /** The most orphans one answer lists. */
  static final int MAX_ORPHANS = 10_000;

  private final CatalogContext catalog;
  private final OrphanFiles orphans;

  MaintenanceHandlers(CatalogContext catalog) {
    this.catalog = catalog;
    this.orphans =
        new OrphanFiles(catalog.metadataFiles()::io, catalog.metadataFiles().locations());
  }

  Future<HttpResult> handleOrphans(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    if (request.warehouse().indexOf('@') >= 0) {
      throw ApiException.badRequest(
          "Orphan files are found in the live catalog, not at a past time");
    }
    TableIdentifier table = request.table();
    Duration olderThan = olderThan(request.query("older-than"));
    long before = System.currentTimeMillis() - olderThan.toMillis();
    return catalog.read(
        () -> {
          TableState state =
              catalog
                  .queries()
                  .table(warehouse, table)
                  .orElseThrow(() -> ApiException.noSuchTable(table));
          List<String> held = OwnerReads.held(catalog, request, warehouse, table);
          if (held.isEmpty()) {
            throw ApiException.noSuchTable(table);
          }
          TableMetadata metadata =
              TableMetadataParser.fromJson(state.metadataLocation(), state.metadataJson());
          OrphanFiles.Report report = orphans.find(metadata, held, before, MAX_ORPHANS);
          ObjectNode body = FloeJson.mapper().createObjectNode();
          body.put("table", table.toString());
          body.put("older-than", olderThan.toString());
          body.put("listed", report.listed());
          body.put("truncated", report.truncated());
          ArrayNode files = body.putArray("orphan-files");
          for (OrphanFiles.Orphan orphan : report.orphans()) {
            files
                .addObject()
                .put("location", orphan.location())
                .put("size-in-bytes", orphan.sizeInBytes())
                .put("created-at", Instant.ofEpochMilli(orphan.createdAtMs()).toString());
          }
          return new HttpResult(200, FloeJson.toBytes(body), Map.of());
        });
  }

  private static Duration olderThan(String value) {
    if (value == null) {
      return Duration.ofDays(3);
    }
    try {
      Duration parsed = Duration.parse(value);
      if (parsed.isNegative()) {
        throw ApiException.badRequest("older-than must not be negative: %s", value);
      }
      return parsed;
    } catch (DateTimeParseException e) {
      throw ApiException.badRequest(
          "Invalid older-than %s: expected an ISO-8601 duration such as PT72H", value);
    }
  }
}
