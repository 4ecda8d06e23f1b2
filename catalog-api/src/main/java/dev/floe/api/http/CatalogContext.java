package dev.floe.api.http;

import dev.floe.client.CommandGateway;
import dev.floe.client.Uuid7;
import dev.floe.events.CommandReply;
import dev.floe.events.command.CatalogCommand;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.state.TableState;
import dev.floe.infra.config.FloeConfig;
import dev.floe.infra.storage.MetadataFiles;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.location.Location;
import dev.floe.infra.storage.vending.CredentialVendors;
import dev.floe.projections.CatalogQueries;
import dev.floe.projections.access.AccessSnapshot;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/** What every handler needs: configuration, the read side, the command gateway, Vert.x. */
public final class CatalogContext {
  private final FloeConfig config;
  private final CatalogQueries queries;
  private final CommandGateway gateway;
  private final Vertx vertx;
  private final MetadataFiles metadataFiles;
  private final CatalogMetrics metrics;
  private final AsOfCatalogs asOf;
  private Supplier<AccessSnapshot> access = () -> AccessSnapshot.EMPTY;
  private final StorageAccess storage;

  public CatalogContext(
      FloeConfig config,
      CatalogQueries queries,
      CommandGateway gateway,
      Vertx vertx,
      MetadataFiles metadataFiles,
      CatalogMetrics metrics,
      AsOfCatalogs asOf,
      CredentialVendors vendors) {
    this.config = config;
    this.queries = queries;
    this.gateway = gateway;
    this.vertx = vertx;
    this.metadataFiles = metadataFiles;
    this.metrics = metrics;
    this.asOf = asOf;
    this.storage =
        new StorageAccess(
            metadataFiles.locations(),
            vendors,
            (request, table) -> Guards.mayWrite(this, request, table));
  }

  /**
   * The storage area of an entity in this namespace with these properties (its namespace's area in
   * its storage root), as the location authority decides it; reads the namespace's properties (and
   * its ancestors'), so call off the event loop. 400 for an unknown storage profile.
   */
  Location storageArea(
      RequestContext request,
      String warehouse,
      Namespace namespace,
      Map<String, String> ownProperties) {
    List<Map<String, String>> levels = new ArrayList<>();
    for (Namespace level : StorageAccess.levels(namespace)) {
      levels.add(
          queries(request)
              .namespace(warehouse, level)
              .map(state -> state.properties())
              .orElse(Map.of()));
    }
    return LocationAuthority.area(
        storage.rootFor(warehouse, ownProperties, levels), List.of(namespace.levels()));
  }

  /**
   * 400 unless a register into this namespace may read the metadata file: inside the namespace's
   * area, decided before the file is opened (a register must never read another namespace's or
   * warehouse's files). Reads the namespace's properties: call off the event loop.
   */
  void requireReadable(
      RequestContext request, String warehouse, Namespace namespace, String metadataFile) {
    storage.requireReadable(storageArea(request, warehouse, namespace, null), metadataFile);
  }

  StorageAccess storage() {
    return storage;
  }

  /** Where the current access-control state is read (set once, before serving). */
  public CatalogContext withAccess(Supplier<AccessSnapshot> access) {
    this.access = access;
    return this;
  }

  private ManagementHandlers.AccessSync accessSync = Future::succeededFuture;

  /** How this instance makes every instance apply the access changes committed so far. */
  public CatalogContext withAccessSync(ManagementHandlers.AccessSync sync) {
    this.accessSync = sync;
    return this;
  }

  /**
   * After a rename: its grants moved in the access store; answer once every instance applies that,
   * so a grantee may use the new name on its next request anywhere. The rename itself is applied
   * either way, so a slow instance delays nothing beyond the sync's own bound.
   */
  Future<HttpResult> afterRename() {
    return accessSync
        .everywhere()
        .recover(e -> Future.succeededFuture())
        .map(v -> HttpResult.noContent());
  }

  public AccessSnapshot access() {
    return access.get();
  }

  /**
   * The secret the instances share, which seals the tokens they hand out (events continuation
   * tokens, plan ids and plan tasks); 503 until it has arrived.
   */
  byte[] tokenSecret() {
    return access()
        .instanceSecret()
        .orElseThrow(
            () -> ApiException.serviceUnavailable("The instances' secret is not there yet"))
        .getBytes(StandardCharsets.UTF_8);
  }

  /** The table as the request's warehouse prefix names it (live or past-time); 404 when none. */
  TableState table(RequestContext request, String warehouse, TableIdentifier table) {
    return queries(request)
        .table(warehouse, table)
        .orElseThrow(() -> ApiException.noSuchTable(table));
  }

  public MetadataFiles metadataFiles() {
    return metadataFiles;
  }

  public CatalogMetrics metrics() {
    return metrics;
  }

  public FloeConfig config() {
    return config;
  }

  public CatalogQueries queries() {
    return queries;
  }

  /**
   * The warehouse named by the path's prefix; 404 before anything else is revealed. A prefix {@code
   * <warehouse>@<ISO-8601 time>} names that warehouse as it was then (read-only).
   */
  public String warehouse(RequestContext request) {
    String prefix = request.warehouse();
    int at = prefix.indexOf('@');
    String warehouse = at < 0 ? prefix : prefix.substring(0, at);
    if (config.warehouseRoot(warehouse) == null) {
      throw ApiException.noSuchWarehouse(prefix);
    }
    if (at >= 0) {
      asOfTime(prefix);
    }
    return warehouse;
  }

  /** The warehouse of a route that changes it: an as-of prefix is refused with 403. */
  public String writableWarehouse(RequestContext request) {
    String warehouse = warehouse(request);
    if (request.warehouse().indexOf('@') >= 0) {
      throw new ApiException(
          ErrorType.FORBIDDEN,
          "Warehouse "
              + request.warehouse()
              + " is a read-only view of "
              + warehouse
              + " as of a past time");
    }
    return warehouse;
  }

  /**
   * The live catalog, or the catalog as of the prefix's time. Blocks for a replay: call off the
   * event loop.
   */
  public CatalogQueries queries(RequestContext request) {
    String prefix = request.warehouse();
    return prefix != null && prefix.indexOf('@') >= 0 ? asOf.asOf(asOfTime(prefix)) : queries;
  }

  static Instant asOfTime(String prefix) {
    String value = prefix.substring(prefix.indexOf('@') + 1);
    Instant time;
    try {
      time = OffsetDateTime.parse(value).toInstant();
    } catch (DateTimeParseException e) {
      throw ApiException.badRequest(
          "Invalid time in warehouse %s: expected ISO-8601 like 2026-11-30T10:00:00Z", prefix);
    }
    if (time.isAfter(Instant.now())) {
      throw ApiException.badRequest("Cannot read warehouse %s: the time is in the future", prefix);
    }
    return time;
  }

  /**
   * The header of the command a request produces. An {@code Idempotency-Key} must be a UUIDv7 (REST
   * spec); the processor replays the first final answer to a retry with the same key.
   */
  public CommandHeader header(RequestContext request) {
    String idempotencyKey = request.header("Idempotency-Key");
    if (idempotencyKey != null && !Uuid7.isUuid7(idempotencyKey)) {
      throw ApiException.badRequest("Invalid Idempotency-Key: must be a UUIDv7");
    }
    String commandId = Uuid7.next().toString();
    request.commandId(commandId);
    return new CommandHeader(
        commandId,
        System.currentTimeMillis(),
        request.principalName(),
        gateway.instanceId(),
        idempotencyKey,
        idempotencyKey == null ? null : request.fingerprint());
  }

  /**
   * A header for a command the catalog sends on its own account or as part of a larger piece of
   * work (maintenance): a new command id, no idempotency key.
   */
  public CommandHeader workHeader(String principal) {
    return new CommandHeader(
        Uuid7.next().toString(),
        System.currentTimeMillis(),
        principal,
        gateway.instanceId(),
        null,
        null);
  }

  /**
   * Sends a command and fails the future with the mapped rejection when the processor refuses it.
   */
  public Future<CommandReply> submit(CatalogCommand command) {
    return send(command).compose(CatalogContext::accepted);
  }

  /**
   * Sends a command and completes with its reply, accepted or not; fails only when the outcome is
   * unknown (no reply in time, or the command could not be sent).
   */
  Future<CommandReply> send(CatalogCommand command) {
    return Future.fromCompletionStage(gateway.submit(command), vertx.getOrCreateContext());
  }

  /** The reply if accepted; else fails with the rejection's HTTP answer. */
  static Future<CommandReply> accepted(CommandReply reply) {
    return reply.accepted()
        ? Future.succeededFuture(reply)
        : Future.failedFuture(HttpErrors.fromRejection(reply.rejection()));
  }

  /** The Vert.x instance the server runs on (timers of long-lived answers). */
  Vertx vertx() {
    return vertx;
  }

  /** Runs a store read off the event loop. */
  public <T> Future<T> read(Callable<T> query) {
    return vertx.executeBlocking(query, false);
  }
}
