package dev.floe.api.http;

import dev.floe.events.CommandReply;
import io.vertx.core.Future;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.view.ViewMetadataParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bodies of the answers to table and view changes (create, commit, register, replace), which
 * are load results of the metadata file the reply names. A reply carries the file's location, not
 * its document; the file never changes once written, so its document is the answer, the same for
 * the first request and for every retry the idempotency ledger answers.
 *
 * <p>The document comes, cheapest first, from the cache of load bodies, from the documents this
 * process's processor has just written, or by reading the file (an instance that did not decide the
 * change). Reading it is done off the event loop, and a failure to read is a 500 {@code
 * CommitStateUnknownException}: the change is applied, so the answer must never look like a refusal
 * (a client that gets a 4xx deletes the files it wrote).
 */
final class ReplyBodies {
  private static final Logger LOG = LoggerFactory.getLogger(ReplyBodies.class);

  private ReplyBodies() {}

  /** A LoadTableResult with the ETag a load of the same metadata file gives. */
  static Future<HttpResult> table(CatalogContext catalog, CommandReply reply) {
    String location = reply.metadataLocation();
    LoadTableResponses.SnapshotMode all = LoadTableResponses.SnapshotMode.ALL;
    if (reply.metadata() == null) {
      HttpResult cached = LoadTableResponses.cached(location, all);
      if (cached != null) {
        return Future.succeededFuture(cached);
      }
    }
    return tableJson(catalog, reply)
        .map(
            json ->
                LoadTableResponses.result(location, json, all, clientConfig(catalog, location)));
  }

  /**
   * As {@link #table(CatalogContext, CommandReply)}, with the signer's configuration when the
   * client's requests to the table's storage are signed (a register into a warehouse that signs).
   */
  static Future<HttpResult> table(
      CatalogContext catalog, RequestContext request, TableIdentifier table, CommandReply reply) {
    StorageAccess storage = catalog.storage();
    if (!storage.signs(request, reply.metadataLocation())) {
      return table(catalog, reply);
    }
    return tableJson(catalog, reply)
        .map(
            json ->
                LoadTableResponses.withCredentials(
                    reply.metadataLocation(),
                    json,
                    LoadTableResponses.SnapshotMode.ALL,
                    storage.signingConfig(request, table, reply.metadataLocation()),
                    null));
  }

  /**
   * The metadata document the reply names: the one it carries (a staged create, or a reply of an
   * earlier version), what this process just wrote, or the file read off the event loop.
   */
  static Future<String> tableJson(CatalogContext catalog, CommandReply reply) {
    if (reply.metadata() != null) {
      return Future.succeededFuture(reply.metadata());
    }
    String location = reply.metadataLocation();
    Optional<String> written = catalog.metadataFiles().recentlyWritten(location);
    if (written.isPresent()) {
      return Future.succeededFuture(written.get());
    }
    return catalog.read(() -> readTable(catalog, location));
  }

  /** The storage settings of the table's location (endpoint, region; no secrets). */
  private static Map<String, String> clientConfig(CatalogContext catalog, String location) {
    return location == null ? Map.of() : catalog.storage().clientConfig(location);
  }

  /** A LoadViewResult. */
  static Future<HttpResult> view(CatalogContext catalog, CommandReply reply) {
    String location = reply.metadataLocation();
    if (reply.metadata() != null) {
      return Future.succeededFuture(viewResult(location, reply.metadata()));
    }
    Optional<String> written = catalog.metadataFiles().recentlyWritten(location);
    if (written.isPresent()) {
      return Future.succeededFuture(viewResult(location, written.get()));
    }
    return catalog.read(() -> viewResult(location, readView(catalog, location)));
  }

  /**
   * The file's document as the store holds it: parsed and written again with Iceberg's parser, so a
   * registered file (written by another writer, perhaps compressed) answers what a load answers.
   */
  private static String readTable(CatalogContext catalog, String location) {
    try {
      return TableMetadataParser.toJson(catalog.metadataFiles().read(location));
    } catch (RuntimeException e) {
      throw unreadable(location, e);
    }
  }

  private static String readView(CatalogContext catalog, String location) {
    try {
      return ViewMetadataParser.toJson(
          ViewMetadataParser.read(catalog.metadataFiles().io(location), location));
    } catch (RuntimeException e) {
      throw unreadable(location, e);
    }
  }

  private static HttpResult viewResult(String location, String json) {
    return new HttpResult(200, LoadTableResponses.body(location, json), Map.of());
  }

  /**
   * Not a 4xx even where the parser's exception would map to one: the change was applied, only its
   * answer could not be read.
   */
  private static ApiException unreadable(String location, RuntimeException e) {
    LOG.warn("Cannot read the metadata file {} to answer an applied change", location, e);
    return new ApiException(
        ErrorType.COMMIT_STATE_UNKNOWN,
        "The change was applied but its metadata file cannot be read to answer: "
            + location
            + ": "
            + e.getMessage());
  }
}
