package dev.floe.projections;

import dev.floe.events.Keys;
import dev.floe.events.state.DeletedEntity;
import dev.floe.events.state.DirectoryKeys;
import dev.floe.events.state.LocationClaim;
import dev.floe.events.state.MetadataDocuments;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.PendingAreaPurge;
import dev.floe.events.state.StoreNames;
import dev.floe.events.state.TableEntry;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.authority.Claims;
import dev.floe.infra.storage.authority.DirectoryClaims;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * {@link CatalogQueries} over the local Kafka Streams stores. Each query goes to the one partition
 * that owns its key (the warehouse key for the directory, the table key for a table).
 */
public final class StreamsCatalogQueries implements CatalogQueries {
  private static final StringSerializer KEYS = new StringSerializer();
  private static final Duration PREPARED_READ_WAIT = Duration.ofSeconds(10);

  private final KafkaStreams streams;
  private final HostInfo self;
  private final MetadataDocuments documents;
  private final FreezeGuard freezes;

  /**
   * @param self this instance's {@code application.server}; a key hosted elsewhere throws {@link
   *     NotLocalException} naming the owner, and the API forwards the request there
   * @param freezes whether this process was just frozen; its stores are not read until it is sure
   *     they are still its own
   */
  public StreamsCatalogQueries(
      KafkaStreams streams, HostInfo self, MetadataDocuments documents, FreezeGuard freezes) {
    this.streams = streams;
    this.self = self;
    this.documents = documents;
    this.freezes = freezes;
  }

  @Override
  public Optional<NamespaceState> namespace(String warehouse, Namespace namespace) {
    byte[] value = directory(warehouse).get(DirectoryKeys.namespace(warehouse, namespace));
    return value == null ? Optional.empty() : Optional.of(NamespaceState.fromBytes(value));
  }

  @Override
  public List<String> heldTableLocations(String warehouse, TableIdentifier identifier) {
    byte[] value = directory(warehouse).get(DirectoryKeys.table(warehouse, identifier));
    return value == null ? List.of() : TableEntry.fromBytes(value).held();
  }

  @Override
  public Claims liveClaims(String warehouse) {
    return DirectoryClaims.live(directory(warehouse), warehouse);
  }

  @Override
  public Page<Namespace> listNamespaces(
      String warehouse, Namespace parent, String pageToken, Integer pageSize) {
    String prefix =
        parent.isEmpty()
            ? DirectoryKeys.namespacePrefix(warehouse)
            : DirectoryKeys.namespace(warehouse, parent) + ".";
    // Only direct children: no separator after the prefix (encoded levels never contain '.').
    return scan(
        directory(warehouse),
        prefix,
        key -> key.indexOf('.', prefix.length()) < 0,
        key -> DirectoryKeys.namespaceOf(warehouse, key),
        pageToken,
        pageSize);
  }

  @Override
  public Page<TableIdentifier> listTables(
      String warehouse, Namespace namespace, String pageToken, Integer pageSize) {
    String prefix = DirectoryKeys.tablePrefix(warehouse, namespace);
    return scan(
        directory(warehouse),
        prefix,
        key -> true,
        key -> TableIdentifier.of(namespace, DirectoryKeys.tableNameOf(key)),
        pageToken,
        pageSize);
  }

  /**
   * A table prepared in a multi-table transaction is read once the coordinator's decision has
   * reached it (tens of milliseconds), so no reader sees one table of a transaction committed and
   * another not yet.
   */
  @Override
  public Optional<TableState> table(String warehouse, TableIdentifier identifier) {
    byte[] value = tableBytes(warehouse, identifier);
    return value == null ? Optional.empty() : Optional.of(TableState.fromBytes(value, documents));
  }

  @Override
  public Optional<String> tableMetadataLocation(String warehouse, TableIdentifier identifier) {
    byte[] value = tableBytes(warehouse, identifier);
    return value == null ? Optional.empty() : Optional.of(TableState.metadataLocationOf(value));
  }

  @Override
  public String tableMetadataLocationNow(String warehouse, TableIdentifier identifier) {
    byte[] value = tableBytesNow(warehouse, identifier);
    return value == null ? null : TableState.metadataLocationOf(value);
  }

  @Override
  public TableState tableNow(String warehouse, TableIdentifier identifier) {
    byte[] value = tableBytesNow(warehouse, identifier);
    return value == null ? null : TableState.fromBytes(value, documents);
  }

  @Override
  public Optional<NotLocalException> hostedElsewhere(String warehouse, TableIdentifier identifier) {
    try {
      store(StoreNames.TABLES, Keys.table(warehouse, identifier));
      return Optional.empty();
    } catch (NotLocalException owner) {
      return Optional.of(owner);
    } catch (StoreUnavailableException unknown) {
      return Optional.empty();
    }
  }

  /** The table's stored value from one local read; null when absent, held or elsewhere. */
  private byte[] tableBytesNow(String warehouse, TableIdentifier identifier) {
    String key = Keys.table(warehouse, identifier);
    ReadOnlyKeyValueStore<String, byte[]> tables;
    try {
      tables = store(StoreNames.TABLES, key);
    } catch (NotLocalException | StoreUnavailableException elsewhere) {
      return null;
    }
    return tables.get(Keys.prepared(key)) == null ? tables.get(key) : null;
  }

  private byte[] tableBytes(String warehouse, TableIdentifier identifier) {
    String key = Keys.table(warehouse, identifier);
    ReadOnlyKeyValueStore<String, byte[]> tables = store(StoreNames.TABLES, key);
    long deadline = System.nanoTime() + PREPARED_READ_WAIT.toNanos();
    while (tables.get(Keys.prepared(key)) != null) {
      if (System.nanoTime() > deadline) {
        throw new StoreUnavailableException(
            "Table " + identifier + " is held by a multi-table transaction; retry", null);
      }
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StoreUnavailableException("Interrupted while reading " + identifier, e);
      }
    }
    return tables.get(key);
  }

  @Override
  public Optional<TableState> view(String warehouse, TableIdentifier identifier) {
    String key = Keys.table(warehouse, identifier);
    byte[] value = store(StoreNames.VIEWS, key).get(key);
    return value == null ? Optional.empty() : Optional.of(TableState.fromBytes(value, documents));
  }

  @Override
  public Page<TableIdentifier> listViews(
      String warehouse, Namespace namespace, String pageToken, Integer pageSize) {
    String prefix = DirectoryKeys.viewPrefix(warehouse, namespace);
    return scan(
        directory(warehouse),
        prefix,
        key -> true,
        key -> TableIdentifier.of(namespace, DirectoryKeys.tableNameOf(key)),
        pageToken,
        pageSize);
  }

  @Override
  public List<DeletedEntity> deleted(String warehouse, Namespace namespace) {
    String prefix =
        namespace == null
            ? DirectoryKeys.deletedPrefix(warehouse)
            : DirectoryKeys.deletedPrefix(warehouse, namespace);
    List<DeletedEntity> found = deletedUnder(warehouse, prefix);
    if (namespace != null && !namespace.isEmpty()) {
      // The namespace itself, when it is the one dropped: kept under its parent.
      deletedUnder(
              warehouse,
              DirectoryKeys.deletedPrefix(warehouse, DeletedEntity.identifierOf(namespace)))
          .stream()
          .filter(DeletedEntity::isNamespace)
          .forEach(found::add);
    }
    return found;
  }

  private List<DeletedEntity> deletedUnder(String warehouse, String prefix) {
    List<DeletedEntity> found = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it = directory(warehouse).prefixScan(prefix, KEYS)) {
      it.forEachRemaining(entry -> found.add(DeletedEntity.fromBytes(entry.value)));
    }
    return found;
  }

  @Override
  public List<String> pendingPurges(String warehouse) {
    String prefix = DirectoryKeys.purgePrefix(warehouse);
    List<String> locations = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it = directory(warehouse).prefixScan(prefix, KEYS)) {
      it.forEachRemaining(
          entry -> {
            // Values of the first format held no spelling: the key was the location.
            String spelled = LocationClaim.fromBytes(entry.value).location();
            locations.add(spelled != null ? spelled : entry.key.substring(prefix.length()));
          });
    }
    return locations;
  }

  @Override
  public List<PendingAreaPurge> pendingAreaPurges(String warehouse) {
    List<PendingAreaPurge> areas = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it =
        directory(warehouse).prefixScan(DirectoryKeys.areaPurgePrefix(warehouse), KEYS)) {
      it.forEachRemaining(entry -> areas.add(PendingAreaPurge.fromBytes(entry.value)));
    }
    return areas;
  }

  private static <T> Page<T> scan(
      ReadOnlyKeyValueStore<String, byte[]> store,
      String prefix,
      Predicate<String> include,
      Function<String, T> toItem,
      String pageToken,
      Integer pageSize) {
    String after = pageToken == null || pageToken.isEmpty() ? null : PageTokens.decode(pageToken);
    List<T> items = new ArrayList<>();
    String lastKey = null;
    try (KeyValueIterator<String, byte[]> it = store.prefixScan(prefix, KEYS)) {
      while (it.hasNext()) {
        KeyValue<String, byte[]> entry = it.next();
        if ((after != null && entry.key.compareTo(after) <= 0) || !include.test(entry.key)) {
          continue;
        }
        if (pageSize != null && items.size() == pageSize) {
          return new Page<>(items, PageTokens.encode(lastKey));
        }
        items.add(toItem.apply(entry.key));
        lastKey = entry.key;
      }
    }
    return new Page<>(items, null);
  }

  @Override
  public List<TableIdentifier> localTables(String warehouse) {
    if (!freezes.trusted()) {
      return List.of();
    }
    ReadOnlyKeyValueStore<String, byte[]> tables;
    try {
      tables =
          streams.store(
              StoreQueryParameters.fromNameAndType(
                  StoreNames.TABLES, QueryableStoreTypes.<String, byte[]>keyValueStore()));
    } catch (InvalidStateStoreException e) {
      return List.of(); // not running yet, or rebalancing: the next round looks again
    }
    String[] range = Keys.tableRange(warehouse);
    List<TableIdentifier> found = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> entries = tables.range(range[0], range[1])) {
      entries.forEachRemaining(entry -> Keys.tableOf(warehouse, entry.key).ifPresent(found::add));
    }
    return found;
  }

  private ReadOnlyKeyValueStore<String, byte[]> directory(String warehouse) {
    return store(StoreNames.DIRECTORY, Keys.warehouse(warehouse));
  }

  private ReadOnlyKeyValueStore<String, byte[]> store(String storeName, String key) {
    try {
      KeyQueryMetadata metadata = streams.queryMetadataForKey(storeName, key, KEYS);
      if (metadata == null || metadata.partition() < 0) {
        throw new StoreUnavailableException("No partition is assigned for " + key, null);
      }
      if (self != null && !self.equals(metadata.activeHost())) {
        throw new NotLocalException(metadata.activeHost().host(), metadata.activeHost().port());
      }
      if (!freezes.trusted()) {
        throw new StoreUnavailableException(
            "This instance was paused; it answers again once its partitions are confirmed", null);
      }
      return streams.store(
          StoreQueryParameters.fromNameAndType(
                  storeName, QueryableStoreTypes.<String, byte[]>keyValueStore())
              .withPartition(metadata.partition()));
    } catch (InvalidStateStoreException e) {
      throw new StoreUnavailableException("The catalog store is not queryable right now", e);
    }
  }
}
