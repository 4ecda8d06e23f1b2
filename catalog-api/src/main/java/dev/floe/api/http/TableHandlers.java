package dev.floe.api.http;

import dev.floe.events.CommandReply;
import dev.floe.events.RestRequestLimits;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.command.CommitTransactionCommand;
import dev.floe.events.command.CreateTableCommand;
import dev.floe.events.command.CreateTableTransactionCommand;
import dev.floe.events.command.DropTableCommand;
import dev.floe.events.command.RelocateCommand;
import dev.floe.events.command.TableChange;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.vending.VendedCredentials;
import dev.floe.processor.RelocationDecider;
import dev.floe.projections.CatalogQueries;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/** The table routes of the Iceberg REST spec. */
final class TableHandlers {
  private final CatalogContext catalog;
  private final WriteAhead writeAhead;

  TableHandlers(CatalogContext catalog) {
    this.catalog = catalog;
    this.writeAhead = new WriteAhead(catalog);
  }

  Future<HttpResult> handleListTables(RequestContext request) {
    return Listings.list(catalog, request, CatalogQueries::listTables);
  }

  /**
   * The table is placed under its storage profile's root, its namespace's, or the warehouse's; a
   * staged create answers with credentials for the location it reserved.
   */
  Future<HttpResult> handleCreateTable(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    Namespace namespace = request.namespace();
    CreateTableRequest body = request.body(CreateTableRequest.class);
    Names.requireValidName(body.name());
    Names.requireNoNulls(body.properties());
    TableIdentifier table = TableIdentifier.of(namespace, body.name());
    return catalog
        .read(() -> storageRoot(request, warehouse, namespace, body.properties()))
        .compose(
            root ->
                catalog.submit(
                    new CreateTableCommand(
                        catalog.header(request),
                        warehouse,
                        root,
                        table,
                        body.location(),
                        body.schema(),
                        body.spec() == null ? null : body.spec().toUnbound(),
                        body.writeOrder() == null ? null : body.writeOrder().toUnbound(),
                        body.properties(),
                        body.stageCreate())))
        .compose(reply -> respond(request, table, reply));
  }

  /** Reads the namespace's properties (and its ancestors'): call off the event loop. */
  private String storageRoot(
      RequestContext request,
      String warehouse,
      Namespace namespace,
      Map<String, String> tableProperties) {
    return catalog.storageArea(request, warehouse, namespace, tableProperties).spelling();
  }

  /**
   * {@code snapshots=refs} serves only referenced snapshots; {@code If-None-Match} with the current
   * ETag answers 304 without a body.
   */
  Future<HttpResult> handleLoadTable(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    LoadTableResponses.SnapshotMode mode =
        LoadTableResponses.SnapshotMode.parse(request.query("snapshots"));
    if (StorageAccess.wantsVending(request)) {
      return catalog.read(() -> delegated(request, warehouse, table, mode));
    }
    String ifNoneMatch = request.header("If-None-Match");
    HttpResult now = loadNow(request, warehouse, table, mode, ifNoneMatch);
    if (now != null) {
      return Future.succeededFuture(now);
    }
    return catalog.read(
        () -> {
          CatalogQueries queries = catalog.queries(request);
          String location =
              queries
                  .tableMetadataLocation(warehouse, table)
                  .orElseThrow(() -> ApiException.noSuchTable(table));
          if (catalog.storage().signs(request, location)) {
            return delegated(request, warehouse, table, mode);
          }
          requireMetadataFile(location);
          String etag = LoadTableResponses.etag(location, mode);
          if (LoadTableResponses.matches(ifNoneMatch, etag)) {
            return new HttpResult(304, null, Map.of("ETag", etag));
          }
          HttpResult cached = LoadTableResponses.cached(location, mode);
          if (cached != null) {
            return cached;
          }
          TableState state = catalog.table(request, warehouse, table);
          return LoadTableResponses.result(
              state.metadataLocation(),
              state.metadataJson(),
              mode,
              catalog.storage().clientConfig(state.metadataLocation()));
        });
  }

  /** A load whose client reaches storage through the catalog: vended credentials or signing. */
  private HttpResult delegated(
      RequestContext request,
      String warehouse,
      TableIdentifier table,
      LoadTableResponses.SnapshotMode mode) {
    TableState state = catalog.table(request, warehouse, table);
    requireMetadataFile(state.metadataLocation());
    return withCredentials(
        request,
        table,
        state.metadataLocation(),
        state.metadataJson(),
        mode,
        () -> OwnerReads.held(catalog, request, warehouse, table));
  }

  /**
   * A load answered on the event loop, without the hand-off to a worker thread and back that cost a
   * quarter of the server's CPU per load (bench/notes.md): only when nothing on the way can block,
   * i.e. the live catalog's store on this instance with no multi-table transaction holding the
   * table, the answer already cached for its metadata file, and that file known to exist without a
   * request (a {@code stat} on a local file system; on object storage, seen within the storage's
   * {@code metadata-exists-ttl}). Null sends the load the usual way, which also gives every error
   * its answer.
   */
  private HttpResult loadNow(
      RequestContext request,
      String warehouse,
      TableIdentifier table,
      LoadTableResponses.SnapshotMode mode,
      String ifNoneMatch) {
    if (request.warehouse().indexOf('@') >= 0) {
      return null;
    }
    try {
      String location = catalog.queries().tableMetadataLocationNow(warehouse, table);
      if (location == null || catalog.storage().signs(request, location)) {
        return null;
      }
      // The cache first: on a miss the usual way checks the file, so it is checked once.
      HttpResult cached = LoadTableResponses.cached(location, mode);
      if (cached == null || !catalog.metadataFiles().knownToExist(location)) {
        return null;
      }
      String etag = cached.headers().get("ETag");
      return LoadTableResponses.matches(ifNoneMatch, etag)
          ? new HttpResult(304, null, cached.headers())
          : cached;
    } catch (RuntimeException e) {
      // A store that moved or closed meanwhile: the usual way answers with the right error.
      return null;
    }
  }

  /**
   * {@code GET …/tables/{table}/credentials}: fresh credentials with the same scope as a load's (an
   * empty list when the table's storage vends none).
   */
  Future<HttpResult> handleLoadCredentials(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    return catalog.read(
        () -> {
          TableState state = catalog.table(request, warehouse, table);
          VendedCredentials credentials =
              catalog
                  .storage()
                  .vend(
                      request,
                      table,
                      state.metadataJson(),
                      () -> OwnerReads.held(catalog, request, warehouse, table))
                  .orElse(null);
          return new HttpResult(
              200,
              LoadTableResponses.credentialsBody(credentials),
              Map.of("Cache-Control", "no-store"));
        });
  }

  private HttpResult withCredentials(
      RequestContext request,
      TableIdentifier table,
      String metadataLocation,
      String metadataJson,
      LoadTableResponses.SnapshotMode mode,
      Supplier<List<String>> held) {
    StorageAccess storage = catalog.storage();
    // A staged create has no metadata file yet: its table's location is in the same storage.
    String location =
        metadataLocation != null ? metadataLocation : storage.locations(metadataJson).get(0);
    if (storage.signs(request, location)) {
      Map<String, String> config = storage.signingConfig(request, table, location);
      return LoadTableResponses.withCredentials(metadataLocation, metadataJson, mode, config, null);
    }
    VendedCredentials credentials = storage.vend(request, table, metadataJson, held).orElse(null);
    if (credentials == null) {
      return LoadTableResponses.result(
          metadataLocation, metadataJson, mode, storage.clientConfig(metadataLocation));
    }
    return LoadTableResponses.withCredentials(
        metadataLocation,
        metadataJson,
        mode,
        storage.vendedConfig(request, table, credentials),
        credentials);
  }

  /**
   * The answer of a create or a staged create, with credentials when asked for. The reply is the
   * decider's word that the location was validated (and, unless staged, claimed) for this table.
   */
  private Future<HttpResult> respond(
      RequestContext request, TableIdentifier table, CommandReply reply) {
    if (!StorageAccess.wantsVending(request)
        && !catalog.storage().signs(request, reply.metadataLocation())) {
      return ReplyBodies.table(catalog, reply);
    }
    return ReplyBodies.tableJson(catalog, reply)
        .compose(
            json ->
                catalog.read(
                    () ->
                        withCredentials(
                            request,
                            table,
                            reply.metadataLocation(),
                            json,
                            LoadTableResponses.SnapshotMode.ALL,
                            () -> List.of(catalog.storage().locations(json).get(0)))));
  }

  /**
   * A table whose current metadata file is gone from storage cannot be trusted by a client that
   * reads the file: answer 404 NotFoundException as Iceberg's catalogs do.
   */
  private void requireMetadataFile(String location) {
    if (!catalog.metadataFiles().exists(location)) {
      throw ApiException.notFound("Failed to open input stream for file: " + location);
    }
  }

  Future<HttpResult> handleTableExists(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    return catalog
        .read(() -> catalog.table(request, warehouse, table))
        .map(state -> HttpResult.noContent());
  }

  Future<HttpResult> handleCommitTable(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    TableIdentifier table = request.table();
    UpdateTableRequest body = request.body(UpdateTableRequest.class);
    if (body.identifier() != null && !body.identifier().equals(table)) {
      throw ApiException.badRequest(
          "Identifier in body %s does not match path %s", body.identifier(), table);
    }
    if (body.requirements().stream()
        .anyMatch(UpdateRequirement.AssertTableDoesNotExist.class::isInstance)) {
      return commitCreateTransaction(request, warehouse, table, body);
    }
    CommitTableCommand command =
        new CommitTableCommand(
            catalog.header(request), warehouse, table, body.requirements(), body.updates());
    if (RelocationDecider.relocates(command)) {
      // New locations are checked against every other entity's on the warehouse key first.
      return catalog
          .submit(new RelocateCommand(command.header(), warehouse, command))
          .compose(reply -> ReplyBodies.table(catalog, reply));
    }
    return writeAhead
        .commit(request, warehouse, table, command)
        .compose(reply -> ReplyBodies.table(catalog, reply));
  }

  /** The commit of a create transaction: {@code assert-create} and nothing else may be required. */
  private Future<HttpResult> commitCreateTransaction(
      RequestContext request, String warehouse, TableIdentifier table, UpdateTableRequest body) {
    if (!body.requirements().stream()
        .allMatch(UpdateRequirement.AssertTableDoesNotExist.class::isInstance)) {
      throw ApiException.badRequest("Invalid create requirements: %s", body.requirements());
    }
    Map<String, String> properties = new HashMap<>();
    for (MetadataUpdate update : body.updates()) {
      if (update instanceof MetadataUpdate.SetProperties set) {
        properties.putAll(set.updated());
      }
    }
    return catalog
        .read(() -> storageRoot(request, warehouse, table.namespace(), properties))
        .compose(
            root ->
                catalog.submit(
                    new CreateTableTransactionCommand(
                        catalog.header(request),
                        warehouse,
                        root,
                        table,
                        body.requirements(),
                        body.updates())))
        .compose(reply -> ReplyBodies.table(catalog, reply));
  }

  /**
   * {@code POST /v1/{prefix}/transactions/commit}: every table's change applies, or none does
   * (204). Creating a table inside a multi-table transaction is not offered (400).
   */
  Future<HttpResult> handleCommitTransaction(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    CommitTransactionRequest body = request.body(CommitTransactionRequest.class);
    if (body.tableChanges() == null || body.tableChanges().isEmpty()) {
      throw ApiException.badRequest("Invalid table changes: a transaction needs at least one");
    }
    if (body.tableChanges().size() > RestRequestLimits.MAX_TABLES_PER_TRANSACTION) {
      throw ApiException.badRequest(
          "Too many tables in one transaction: %d (at most %d)",
          body.tableChanges().size(), RestRequestLimits.MAX_TABLES_PER_TRANSACTION);
    }
    Set<TableIdentifier> seen = new HashSet<>();
    List<TableChange> changes = new ArrayList<>();
    for (UpdateTableRequest change : body.tableChanges()) {
      TableIdentifier table = change.identifier();
      if (table == null) {
        throw ApiException.badRequest("Invalid table change: missing the table identifier");
      }
      Names.requireValidName(table.name());
      if (!seen.add(table)) {
        throw ApiException.badRequest("Table %s appears more than once in the transaction", table);
      }
      if (change.requirements().stream()
          .anyMatch(UpdateRequirement.AssertTableDoesNotExist.class::isInstance)) {
        throw ApiException.badRequest(
            "Cannot create table %s in a multi-table transaction: create it first", table);
      }
      changes.add(new TableChange(table, change.requirements(), change.updates()));
    }
    CommitTransactionCommand command =
        new CommitTransactionCommand(catalog.header(request), warehouse, changes);
    return catalog.submit(command).map(reply -> HttpResult.noContent());
  }

  Future<HttpResult> handleDropTable(RequestContext request) {
    String warehouse = catalog.writableWarehouse(request);
    TableIdentifier table = request.table();
    boolean purge = Boolean.parseBoolean(request.query("purgeRequested"));
    DropTableCommand command =
        new DropTableCommand(catalog.header(request), warehouse, table, purge);
    return catalog.submit(command).map(reply -> HttpResult.noContent());
  }
}
