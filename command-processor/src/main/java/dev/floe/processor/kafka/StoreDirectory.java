package dev.floe.processor.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.ExpungeEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.state.DeletedEntity;
import dev.floe.events.state.DirectoryKeys;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.TableEntry;
import dev.floe.infra.storage.authority.Claims;
import dev.floe.infra.storage.authority.DirectoryClaims;
import dev.floe.processor.Directory;
import dev.floe.processor.step.CommitRelocatedStep;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.RestoreStep;
import dev.floe.processor.step.RetainDeletedStep;
import dev.floe.processor.step.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One warehouse's directory in the processor's RocksDB store: read by the decider, changed here.
 * The location index ({@code l/} live, {@code p/} awaiting purge) is keyed by canonical location,
 * so the location authority finds every overlap with exact lookups and one prefix scan.
 */
final class StoreDirectory implements Directory {
  private static final StringSerializer KEYS = new StringSerializer();

  private final KeyValueStore<String, byte[]> store;
  private final String warehouse;
  private final DirectoryIndexes indexes;
  private final Duration recoveryPeriod;
  private long earliestKeptExpiryMs = Long.MAX_VALUE;

  StoreDirectory(KeyValueStore<String, byte[]> store, String warehouse) {
    this(store, warehouse, Duration.ZERO);
  }

  StoreDirectory(KeyValueStore<String, byte[]> store, String warehouse, Duration recoveryPeriod) {
    this.store = store;
    this.warehouse = warehouse;
    this.indexes = new DirectoryIndexes(store, warehouse);
    this.recoveryPeriod = recoveryPeriod;
  }

  @Override
  public Duration recoveryPeriod() {
    return recoveryPeriod;
  }

  /**
   * The earliest expiry of what this directory kept for a recovery period since it was made; {@code
   * Long.MAX_VALUE} when it kept nothing.
   */
  long earliestKeptExpiryMs() {
    return earliestKeptExpiryMs;
  }

  private void kept(DeletedEntity entity) {
    store.put(entity.key(), entity.toBytes());
    earliestKeptExpiryMs = Math.min(earliestKeptExpiryMs, entity.expiresAtMs());
  }

  @Override
  public List<DeletedEntity> deleted(TableIdentifier identifier) {
    return deletedUnder(DirectoryKeys.deletedPrefix(warehouse, identifier));
  }

  @Override
  public List<DeletedEntity> deleted() {
    return deletedUnder(DirectoryKeys.deletedPrefix(warehouse));
  }

  @Override
  public List<DeletedEntity> deletedWithin(Namespace namespace) {
    List<DeletedEntity> found = deletedUnder(DirectoryKeys.deletedPrefix(warehouse, namespace));
    found.addAll(deletedUnder(DirectoryKeys.deletedBelow(warehouse, namespace)));
    return found;
  }

  private List<DeletedEntity> deletedUnder(String prefix) {
    List<DeletedEntity> found = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it = store.prefixScan(prefix, KEYS)) {
      it.forEachRemaining(entry -> found.add(DeletedEntity.fromBytes(entry.value)));
    }
    return found;
  }

  @Override
  public Optional<NamespaceState> namespace(Namespace namespace) {
    byte[] value = store.get(DirectoryKeys.namespace(warehouse, namespace));
    return value == null ? Optional.empty() : Optional.of(NamespaceState.fromBytes(value));
  }

  @Override
  public boolean hasChildNamespaces(Namespace namespace) {
    return any(DirectoryKeys.namespace(warehouse, namespace) + ".");
  }

  @Override
  public boolean hasTables(Namespace namespace) {
    return any(DirectoryKeys.tablePrefix(warehouse, namespace));
  }

  @Override
  public boolean hasViews(Namespace namespace) {
    return any(DirectoryKeys.viewPrefix(warehouse, namespace));
  }

  @Override
  public boolean viewExists(TableIdentifier identifier) {
    return store.get(viewHolder(identifier)) != null;
  }

  @Override
  public boolean tableExists(TableIdentifier identifier) {
    return store.get(tableHolder(identifier)) != null;
  }

  @Override
  public Optional<TableEntry> table(TableIdentifier identifier) {
    return entry(tableHolder(identifier));
  }

  @Override
  public Optional<TableEntry> view(TableIdentifier identifier) {
    return entry(viewHolder(identifier));
  }

  private Optional<TableEntry> entry(String key) {
    byte[] value = store.get(key);
    return value == null ? Optional.empty() : Optional.of(TableEntry.fromBytes(value));
  }

  @Override
  public String tableHolder(TableIdentifier identifier) {
    return DirectoryKeys.table(warehouse, identifier);
  }

  @Override
  public Optional<String> uuidHolder(String uuid) {
    return indexes.uuidHolder(uuid);
  }

  @Override
  public String viewHolder(TableIdentifier identifier) {
    return DirectoryKeys.view(warehouse, identifier);
  }

  String holder(EntityKind kind, TableIdentifier identifier) {
    return kind == EntityKind.TABLE ? tableHolder(identifier) : viewHolder(identifier);
  }

  @Override
  public Claims claims() {
    return DirectoryClaims.all(store, warehouse);
  }

  private boolean any(String prefix) {
    try (KeyValueIterator<String, byte[]> it = store.prefixScan(prefix, KEYS)) {
      return it.hasNext();
    }
  }

  /**
   * Applies a namespace, purge or expunge event to the directory (evolve); {@code atMs} is when it
   * was decided.
   */
  void apply(CatalogEvent event, long atMs) {
    event.accept(new DirectoryEvents(this, atMs));
  }

  /** A namespace as it is from now on (created, its properties updated, restored). */
  void putNamespace(Namespace namespace, NamespaceState state) {
    store.put(DirectoryKeys.namespace(warehouse, namespace), state.toBytes());
  }

  /** A dropped namespace kept for its recovery period is no longer kept (restored, expunged). */
  void forgetKeptNamespace(Namespace namespace, String dropCommandId) {
    store.delete(DirectoryKeys.deletedNamespace(warehouse, namespace, dropCommandId));
  }

  void removeNamespace(Namespace namespace) {
    store.delete(DirectoryKeys.namespace(warehouse, namespace));
  }

  /**
   * A dropped namespace leaves the namespaces at once (absent from lists, loads and the parent's
   * children); kept, it holds its name and properties under its {@code d/} key until it expires.
   * Called before the namespace is removed.
   */
  void keepDroppedNamespace(NamespaceDroppedEvent e, long atMs) {
    Optional<NamespaceState> state = namespace(e.namespace());
    if (e.kept() && state.isPresent()) {
      kept(
          DeletedEntity.namespace(
              warehouse,
              e.namespace(),
              state.get(),
              atMs,
              e.expiresAtMs(),
              e.principal(),
              e.commandId()));
    }
  }

  /**
   * Claims, moves or releases a table or view name and its locations, in the same transaction that
   * sends the step on.
   */
  void apply(Step step) {
    step.accept(new DirectorySteps(this));
  }

  /**
   * A recoverable drop frees the name but keeps the entity, and its locations stay held by it, for
   * the recovery period; its last state arrives with {@link #retain}.
   */
  void keep(
      EntityKind kind,
      TableIdentifier identifier,
      CommandHeader header,
      long expiresAtMs,
      boolean purgeRequested) {
    String name = holder(kind, identifier);
    byte[] value = store.get(name);
    if (value == null) {
      return;
    }
    DeletedEntity entity =
        new DeletedEntity(
            warehouse,
            kind == EntityKind.TABLE ? DeletedEntity.TABLE : DeletedEntity.VIEW,
            identifier,
            TableEntry.fromBytes(value),
            null,
            header.timestampMillis(),
            expiresAtMs,
            header.principal(),
            purgeRequested,
            header.commandId());
    store.delete(name);
    indexes.releaseUuid(entity.entry(), name);
    kept(entity);
    for (String location : entity.entry().held()) {
      indexes.hold(location, entity.key());
    }
  }

  /** The dropped entity's last state, sent back by its key after a recoverable drop. */
  void retain(RetainDeletedStep step) {
    String key =
        DirectoryKeys.deleted(
            warehouse,
            step.identifier(),
            step.kind() == EntityKind.TABLE ? DeletedEntity.TABLE : DeletedEntity.VIEW,
            step.header().commandId());
    byte[] value = store.get(key);
    if (value != null) {
      store.put(key, DeletedEntity.fromBytes(value).withState(step.state()).toBytes());
    }
  }

  /** The kept entity takes a name again, and its locations are held by that name. */
  void restore(RestoreStep step) {
    String key =
        DirectoryKeys.deleted(
            warehouse,
            step.source(),
            step.kind() == EntityKind.TABLE ? DeletedEntity.TABLE : DeletedEntity.VIEW,
            step.dropCommandId());
    DeletedEntity entity = DeletedEntity.fromBytes(store.get(key));
    String name = holder(step.kind(), step.destination());
    store.delete(key);
    TableEntry restored = entity.entry().claimedBy(step.header().commandId());
    if (restored.uuid() == null && entity.uuid() != null) {
      restored =
          new TableEntry(
              restored.commandId(), restored.location(), restored.claims(), entity.uuid());
    }
    store.put(name, restored.toBytes());
    indexes.holdUuid(restored, name);
    for (String location : entity.entry().held()) {
      indexes.hold(location, name);
    }
  }

  /**
   * The kept entity is gone for good: its locations are released, or, when its files are to be
   * deleted, reserved for the purger until they are.
   */
  void expunge(ExpungeEvent event, boolean purge) {
    String key =
        DirectoryKeys.deleted(warehouse, event.identifier(), event.kind(), event.dropCommandId());
    byte[] value = store.get(key);
    if (value == null) {
      return;
    }
    DeletedEntity entity = DeletedEntity.fromBytes(value);
    store.delete(key);
    for (String location : entity.entry().held()) {
      indexes.releaseIfHeldBy(location, key);
      if (purge) {
        indexes.reserveForPurge(location, key, entity.uuid());
      }
    }
  }

  /** Only the claim this command made: a later create of the same name keeps its own. */
  void releaseOwnClaim(String key, String commandId) {
    byte[] entry = store.get(key);
    if (entry != null && TableEntry.fromBytes(entry).commandId().equals(commandId)) {
      release(key, false);
    }
  }

  void move(String from, String to, String commandId) {
    TableEntry entry = TableEntry.fromBytes(store.get(from));
    store.delete(from);
    store.put(to, entry.claimedBy(commandId).toBytes());
    indexes.holdUuid(entry, to);
    for (String location : entry.held()) {
      indexes.hold(location, to);
    }
  }

  void claim(String key, TableEntry entry) {
    store.put(key, entry.toBytes());
    indexes.holdUuid(entry, key);
    if (entry.location() != null) {
      indexes.hold(entry.location(), key);
    }
  }

  static TableEntry viewEntry(String commandId, JsonNode metadata) {
    return new TableEntry(
        commandId, metadata.path("location").asText(null), metadata.path("view-uuid").asText(null));
  }

  /** The locations a relocating commit moves to are the entity's too, from now on. */
  void holdMore(CommitRelocatedStep step) {
    String key = step.view() ? viewHolder(step.identifier()) : tableHolder(step.identifier());
    TableEntry entry = TableEntry.fromBytes(store.get(key));
    for (String location : step.held()) {
      if (!entry.held().contains(location)) {
        entry = entry.holding(location);
        indexes.hold(location, key);
      }
    }
    store.put(key, entry.toBytes());
  }

  /**
   * Frees a name and its locations; a purge keeps each location reserved until its files are gone.
   */
  void release(String key, boolean purge) {
    byte[] value = store.get(key);
    if (value == null) {
      return;
    }
    store.delete(key);
    TableEntry entry = TableEntry.fromBytes(value);
    indexes.releaseUuid(entry, key);
    for (String location : entry.held()) {
      indexes.release(location);
      if (purge) {
        indexes.reserveForPurge(location, key, null);
      }
    }
  }

  @Override
  public boolean purgePending(String location) {
    return indexes.purgePending(location);
  }

  void forgetPurge(String location) {
    indexes.forgetPurge(location);
  }

  /**
   * An expired namespace's areas, for the purger to empty of what was there before {@code atMs}.
   */
  void reserveAreas(List<String> areas, long atMs) {
    for (String area : areas) {
      indexes.reserveArea(area, atMs);
    }
  }
}
