package dev.floe.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.api.maintenance.OrphanFiles;
import dev.floe.events.FloeJson;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.event.TableMaintainedEvent;
import dev.floe.events.state.TableState;
import dev.floe.infra.config.MaintenanceConfig;
import dev.floe.projections.lineage.LineageIndex;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.util.PropertyUtil;

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
  private final SnapshotExpiry expiry;
  private final LineageIndex runs;

  MaintenanceHandlers(CatalogContext catalog, LineageIndex runs) {
    this.catalog = catalog;
    this.runs = runs;
    this.expiry = new SnapshotExpiry(catalog);
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
          TableState state = catalog.table(request, warehouse, table);
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

  /**
   * {@code GET …/tables/{t}/maintenance}: whether the catalog maintains the table on its schedule
   * and which setting decided it, and its last recorded run ({@code floe.table.maintained}; null
   * before the first). Guarded by read on the table.
   */
  Future<HttpResult> handleStatus(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    if (request.warehouse().indexOf('@') >= 0) {
      throw ApiException.badRequest("Maintenance status is of the live catalog, not a past time");
    }
    TableIdentifier table = request.table();
    return catalog.read(
        () -> {
          TableState state = catalog.table(request, warehouse, table);
          TableMetadata metadata =
              TableMetadataParser.fromJson(state.metadataLocation(), state.metadataJson());
          MaintenanceConfig config = catalog.config().maintenance();
          MaintenanceConfig.Decision decision = config.decide(warehouse, metadata.properties());
          ObjectNode body = FloeJson.mapper().createObjectNode();
          body.put("table", table.toString());
          body.put("table-uuid", metadata.uuid());
          ObjectNode schedule = body.putObject("schedule");
          boolean collects =
              PropertyUtil.propertyAsBoolean(
                  metadata.properties(),
                  TableProperties.GC_ENABLED,
                  TableProperties.GC_ENABLED_DEFAULT);
          schedule.put("scheduled", decision.scheduled() && collects);
          schedule.put(
              "because",
              decision.scheduled() && !collects ? "gc.enabled=false" : decision.because());
          schedule.put("interval", config.interval().toString());
          Optional<LineageIndex.MaintenanceRun> last = runs.lastMaintenance(metadata.uuid());
          if (last.isEmpty()) {
            body.putNull("last-run");
          } else {
            TableMaintainedEvent run = last.get().event();
            body.putObject("last-run")
                .put("at", last.get().time())
                .put("trigger", run.trigger())
                .put("principal", run.principal())
                .put("expired-snapshots", run.expiredSnapshots())
                .put("remaining-snapshots", run.remainingSnapshots())
                .put("deleted-files", run.deletedFiles())
                .put("deleted-bytes", run.deletedBytes())
                .put("kept-outside-table", run.keptOutsideTable());
          }
          return new HttpResult(200, FloeJson.toBytes(body), Map.of());
        });
  }

  /**
   * {@code POST …/tables/{t}/expire-snapshots}: body {@code {"dry-run"?, "older-than-ms"?,
   * "retain-last"?, "clean-files"?}} (the limits default to the table's {@code history.expire.*}
   * properties, as in Iceberg; files are cleaned unless {@code clean-files} is false); answers the
   * snapshots expired and the files deleted, or those that would be with {@code dry-run}.
   */
  Future<HttpResult> handleExpireSnapshots(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    TableIdentifier table = request.table();
    JsonNode body = request.hasBody() ? request.json() : FloeJson.mapper().createObjectNode();
    boolean dryRun = flag(body, "dry-run", false);
    boolean cleanFiles = flag(body, "clean-files", true);
    Long olderThanMs = optionalLong(body, "older-than-ms");
    Long retainLast = optionalLong(body, "retain-last");
    if (retainLast != null && (retainLast < 1 || retainLast > Integer.MAX_VALUE)) {
      throw ApiException.badRequest("retain-last must be at least 1: %s", retainLast);
    }
    return catalog.read(
        () -> {
          List<String> held = OwnerReads.held(catalog, request, warehouse, table);
          if (held.isEmpty()) {
            throw ApiException.noSuchTable(table);
          }
          SnapshotExpiry.Subject subject =
              new SnapshotExpiry.Subject(
                  warehouse,
                  table,
                  () -> catalog.table(request, warehouse, table),
                  () -> {
                    CommandHeader header = catalog.workHeader(request.principalName());
                    request.commandId(header.commandId());
                    return header;
                  });
          SnapshotExpiry.Result result =
              expiry.expire(
                  subject,
                  olderThanMs,
                  retainLast == null ? null : retainLast.intValue(),
                  held,
                  cleanFiles,
                  dryRun,
                  SnapshotExpiry.REQUEST);
          ObjectNode answer = FloeJson.mapper().createObjectNode();
          answer.put("table", table.toString());
          answer.put("dry-run", dryRun);
          ArrayNode ids = answer.putArray("expired-snapshot-ids");
          result.expired().forEach(ids::add);
          answer.put("remaining-snapshots", result.remaining());
          answer.put("clean-files", cleanFiles);
          answer.put("deleted-files", result.deletedFiles());
          answer.put("deleted-bytes", result.deletedBytes());
          answer.put("kept-outside-table", result.keptOutside());
          answer.put("files-truncated", result.deletedFiles() > result.files().size());
          ArrayNode files = answer.putArray("files");
          result.files().forEach(files::add);
          return new HttpResult(200, FloeJson.toBytes(answer), Map.of());
        });
  }

  private static boolean flag(JsonNode body, String field, boolean absent) {
    JsonNode value = body.path(field);
    if (value.isMissingNode() || value.isNull()) {
      return absent;
    }
    if (!value.isBoolean()) {
      throw ApiException.badRequest("%s must be true or false", field);
    }
    return value.asBoolean();
  }

  private static Long optionalLong(JsonNode body, String field) {
    JsonNode value = body.path(field);
    if (value.isMissingNode() || value.isNull()) {
      return null;
    }
    if (!value.canConvertToLong() || !value.isIntegralNumber()) {
      throw ApiException.badRequest("%s must be a whole number", field);
    }
    return value.asLong();
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
