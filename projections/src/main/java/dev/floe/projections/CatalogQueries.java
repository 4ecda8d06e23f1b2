package dev.floe.projections;

import dev.floe.events.state.DeletedEntity;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.PendingAreaPurge;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.authority.Claims;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The read side of the catalog: point lookups and listings answered from the processor's RocksDB
 * stores, never through Kafka.
 */
public interface CatalogQueries {
  Optional<NamespaceState> namespace(String warehouse, Namespace namespace);

  /**
   * @param parent the empty namespace for top-level namespaces
   * @param pageSize at most this many, or every one when null
   */
  Page<Namespace> listNamespaces(
      String warehouse, Namespace parent, String pageToken, Integer pageSize);

  Page<TableIdentifier> listTables(
      String warehouse, Namespace namespace, String pageToken, Integer pageSize);

  Optional<TableState> table(String warehouse, TableIdentifier identifier);

  /**
   * Where a table's current metadata file is, without decoding its (possibly large) metadata
   * document: a load whose answer is cached for that file needs nothing else.
   */
  default Optional<String> tableMetadataLocation(String warehouse, TableIdentifier identifier) {
    return table(warehouse, identifier).map(TableState::metadataLocation);
  }

  /**
   * The table's metadata location if one local store read finds it; {@code null} when the table is
   * absent, or answering would wait (a multi-table transaction holds it) or needs more (a replay,
   * another instance): then call {@link #tableMetadataLocation} off the event loop, which waits,
   * tells where to ask, or finds nothing. Never blocks.
   */
  default String tableMetadataLocationNow(String warehouse, TableIdentifier identifier) {
    return null;
  }

  /**
   * The table's state if one local store read finds it, under the same conditions as {@link
   * #tableMetadataLocationNow}; {@code null} otherwise. Its document is read when first asked for.
   */
  default TableState tableNow(String warehouse, TableIdentifier identifier) {
    return null;
  }

  /**
   * The instance that hosts the table's key, as the exception a read here would throw, when that is
   * another instance; empty when it is this one or none is known. Reads no store.
   */
  default Optional<NotLocalException> hostedElsewhere(
      String warehouse, TableIdentifier identifier) {
    return Optional.empty();
  }

  /**
   * The locations the directory holds for a table, each checked by the location authority against
   * every other entity's when the table was created, registered or moved. Empty when unknown.
   */
  default List<String> heldTableLocations(String warehouse, TableIdentifier identifier) {
    return List.of();
  }

  /** The locations held by the warehouse's live tables and views (for the purger's last check). */
  default Claims liveClaims(String warehouse) {
    throw new UnsupportedOperationException("No live directory here");
  }

  Optional<TableState> view(String warehouse, TableIdentifier identifier);

  /** The uuid of the table (or view) holding the name now, if one does. */
  default Optional<String> uuidNow(String warehouse, TableIdentifier name, boolean view) {
    return (view ? view(warehouse, name) : table(warehouse, name)).map(TableState::tableUuid);
  }

  Page<TableIdentifier> listViews(
      String warehouse, Namespace namespace, String pageToken, Integer pageSize);

  /**
   * The dropped tables, views and namespaces kept for their warehouse's recovery period, by name;
   * when {@code namespace} is not null, only those in it, and that namespace itself when it is the
   * one dropped.
   */
  default List<DeletedEntity> deleted(String warehouse, Namespace namespace) {
    throw new UnsupportedOperationException("No live directory here");
  }

  /** Locations of dropped tables whose files wait to be purged, as the tables spelled them. */
  List<String> pendingPurges(String warehouse);

  /** Areas of expired namespaces whose files wait to be purged. */
  List<PendingAreaPurge> pendingAreaPurges(String warehouse);

  /**
   * The warehouse's tables whose state this instance holds as the active copy: each table is listed
   * by exactly one instance of a cluster.
   */
  default List<TableIdentifier> localTables(String warehouse) {
    return List.of();
  }
}
