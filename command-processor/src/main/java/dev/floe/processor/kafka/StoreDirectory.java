package dev.floe.processor.kafka;

import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.events.event.TableFilesPurgedEvent;
import dev.floe.events.event.TablePurgeRefusedEvent;
import dev.floe.events.state.DirectoryKeys;
import dev.floe.events.state.LocationClaim;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.TableEntry;
import dev.floe.infra.storage.authority.Claims;
import dev.floe.infra.storage.authority.DirectoryClaims;
import dev.floe.infra.storage.location.InvalidLocationException;
import dev.floe.infra.storage.location.Location;
import dev.floe.processor.Directory;
import dev.floe.processor.step.CommitRelocatedStep;
import dev.floe.processor.step.CreateTableStep;
import dev.floe.processor.step.CreateViewStep;
import dev.floe.processor.step.DropTableStep;
import dev.floe.processor.step.DropViewStep;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.MoveOutStep;
import dev.floe.processor.step.RegisterTableStep;
import dev.floe.processor.step.RegisterViewStep;
import dev.floe.processor.step.ReleaseNameStep;
import dev.floe.processor.step.Step;
import java.util.HashMap;
import java.util.Map;
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

  StoreDirectory(KeyValueStore<String, byte[]> store, String warehouse) {
    this.store = store;
    this.warehouse = warehouse;
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
  public String viewHolder(TableIdentifier identifier) {
    return DirectoryKeys.view(warehouse, identifier);
  }

  private String holder(EntityKind kind, TableIdentifier identifier) {
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

  /** Applies a namespace or purge event to the directory (evolve). */
  void apply(CatalogEvent event) {
    if (event instanceof NamespaceCreatedEvent e) {
      store.put(
          DirectoryKeys.namespace(warehouse, e.namespace()),
          new NamespaceState(e.properties(), e.sequence()).toBytes());
    } else if (event instanceof NamespacePropertiesUpdatedEvent e) {
      Map<String, String> properties =
          new HashMap<>(namespace(e.namespace()).orElseThrow().properties());
      e.removed().forEach(properties::remove);
      properties.putAll(e.updated());
      store.put(
          DirectoryKeys.namespace(warehouse, e.namespace()),
          new NamespaceState(properties, e.sequence()).toBytes());
    } else if (event instanceof NamespaceDroppedEvent e) {
      store.delete(DirectoryKeys.namespace(warehouse, e.namespace()));
    } else if (event instanceof TableFilesPurgedEvent e) {
      forgetPurge(e.location());
    } else if (event instanceof TablePurgeRefusedEvent e) {
      forgetPurge(e.location());
    } else {
      throw new IllegalArgumentException("Not a directory event: " + event.type());
    }
  }

  /**
   * Claims, moves or releases a table or view name and its locations, in the same transaction that
   * sends the step on.
   */
  void apply(Step step) {
    if (step instanceof CommitRelocatedStep s) {
      holdMore(s);
    } else if (step instanceof MoveOutStep s) {
      move(holder(s.kind(), s.source()), holder(s.kind(), s.destination()), s.header().commandId());
    } else if (step instanceof CreateTableStep s) {
      claim(tableHolder(s.identifier()), s.header().commandId(), s.metadata().location());
    } else if (step instanceof RegisterTableStep s) {
      release(tableHolder(s.identifier()), false);
      claim(tableHolder(s.identifier()), s.header().commandId(), s.metadata().location());
    } else if (step instanceof CreateViewStep s) {
      claim(
          viewHolder(s.identifier()),
          s.header().commandId(),
          s.metadata().path("location").asText(null));
    } else if (step instanceof RegisterViewStep s) {
      claim(
          viewHolder(s.identifier()),
          s.header().commandId(),
          s.metadata().path("location").asText(null));
    } else if (step instanceof ReleaseNameStep s) {
      releaseOwnClaim(holder(s.kind(), s.identifier()), s.header().commandId());
    } else if (step instanceof DropTableStep s) {
      release(tableHolder(s.identifier()), s.purgeRequested());
    } else if (step instanceof DropViewStep s) {
      release(viewHolder(s.identifier()), false);
    }
  }

  /** Only the claim this command made: a later create of the same name keeps its own. */
  private void releaseOwnClaim(String key, String commandId) {
    byte[] entry = store.get(key);
    if (entry != null && TableEntry.fromBytes(entry).commandId().equals(commandId)) {
      release(key, false);
    }
  }

  private void move(String from, String to, String commandId) {
    TableEntry entry = TableEntry.fromBytes(store.get(from));
    store.delete(from);
    store.put(to, entry.claimedBy(commandId).toBytes());
    for (String location : entry.held()) {
      index(location, to);
    }
  }

  private void claim(String key, String commandId, String location) {
    store.put(key, new TableEntry(commandId, location).toBytes());
    if (location != null) {
      index(location, key);
    }
  }

  /** The locations a relocating commit moves to are the entity's too, from now on. */
  private void holdMore(CommitRelocatedStep step) {
    String key = step.view() ? viewHolder(step.identifier()) : tableHolder(step.identifier());
    TableEntry entry = TableEntry.fromBytes(store.get(key));
    for (String location : step.held()) {
      if (!entry.held().contains(location)) {
        entry = entry.holding(location);
        index(location, key);
      }
    }
    store.put(key, entry.toBytes());
  }

  private void index(String location, String holder) {
    // A location held from before canonical keys that no longer parses keeps its old key.
    String canonical = canonicalOrSelf(location);
    store.put(
        DirectoryKeys.location(warehouse, canonical),
        new LocationClaim(holder, location, null).toBytes());
  }

  /**
   * Frees a name and its locations; a purge keeps each location reserved until its files are gone.
   */
  private void release(String key, boolean purge) {
    byte[] value = store.get(key);
    if (value == null) {
      return;
    }
    store.delete(key);
    for (String location : TableEntry.fromBytes(value).held()) {
      String canonical = canonicalOrSelf(location);
      store.delete(DirectoryKeys.location(warehouse, canonical));
      if (purge) {
        store.put(
            DirectoryKeys.purge(warehouse, canonical),
            new LocationClaim(key, location, null).toBytes());
      }
    }
  }

  private void forgetPurge(String location) {
    store.delete(DirectoryKeys.purge(warehouse, canonicalOrSelf(location)));
    store.delete(DirectoryKeys.purge(warehouse, location));
  }

  @Override
  public boolean purgePending(String location) {
    return store.get(DirectoryKeys.purge(warehouse, canonicalOrSelf(location))) != null
        || store.get(DirectoryKeys.purge(warehouse, location)) != null;
  }

  /** Locations stored before canonical keys were keyed by their normalised spelling. */
  private static String canonicalOrSelf(String location) {
    try {
      return Location.parse(location).canonical();
    } catch (InvalidLocationException e) {
      return location;
    }
  }
}
