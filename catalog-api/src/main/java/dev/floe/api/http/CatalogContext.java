package dev.floe.api.http;

import dev.floe.api.CommandGateway;
import dev.floe.api.Uuid7;
import dev.floe.events.CommandReply;
import dev.floe.events.command.CatalogCommand;
import dev.floe.events.command.CommandHeader;
import dev.floe.infra.config.FloeConfig;
import dev.floe.infra.storage.MetadataFiles;
import dev.floe.projections.CatalogQueries;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.Callable;

/** What every handler needs: configuration, the read side, the command gateway, Vert.x. */
public final class CatalogContext {
  private final FloeConfig config;
  private final CatalogQueries queries;
  private final CommandGateway gateway;
  private final Vertx vertx;
  private final MetadataFiles metadataFiles;
  private final CatalogMetrics metrics;

  public CatalogContext(
      FloeConfig config,
      CatalogQueries queries,
      CommandGateway gateway,
      Vertx vertx,
      MetadataFiles metadataFiles,
      CatalogMetrics metrics) {
    this.config = config;
    this.queries = queries;
    this.gateway = gateway;
    this.vertx = vertx;
    this.metadataFiles = metadataFiles;
    this.metrics = metrics;
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

  /** The warehouse named by the path's prefix; 404 before anything else is revealed. */
  public String warehouse(RequestContext request) {
    String warehouse = request.warehouse();
    if (config.warehouseRoot(warehouse) == null) {
      throw ApiException.noSuchWarehouse(warehouse);
    }
    return warehouse;
  }

  public CommandHeader header(RequestContext request) {
    String commandId = Uuid7.next().toString();
    request.commandId(commandId);
    return new CommandHeader(
        commandId,
        System.currentTimeMillis(),
        "anonymous",
        gateway.instanceId(),
        request.header("Idempotency-Key"));
  }

  /** Sends a command and fails the future with the mapped rejection when the processor refuses it. */
  public Future<CommandReply> submit(CatalogCommand command) {
    return Future.fromCompletionStage(gateway.submit(command), vertx.getOrCreateContext())
        .compose(
            reply ->
                reply.accepted()
                    ? Future.succeededFuture(reply)
                    : Future.failedFuture(HttpErrors.fromRejection(reply.rejection())));
  }

  /** Runs a store read off the event loop. */
  public <T> Future<T> read(Callable<T> query) {
    return vertx.executeBlocking(query, false);
  }
}
