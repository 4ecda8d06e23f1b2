package dev.floe.processor.kafka;

import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.events.event.TableFilesPurgedEvent;
import dev.floe.events.state.DirectoryKeys;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.TableEntry;
import dev.floe.processor.Directory;
import dev.floe.processor.TableLocations;
import dev.floe.processor.step.CreateTableStep;
import dev.floe.processor.step.CreateViewStep;
import dev.floe.processor.step.DropTableStep;
import dev.floe.processor.step.DropViewStep;
import dev.floe.processor.step.MoveTableOutStep;
import dev.floe.processor.step.MoveViewOutStep;
import dev.floe.processor.step.RegisterTableStep;
import dev.floe.processor.step.RegisterViewStep;
import dev.floe.processor.step.ReleaseTableNameStep;
import dev.floe.processor.step.ReleaseViewNameStep;
import dev.floe.processor.step.TableStep;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One warehouse's directory in the processor's RocksDB store: read by the decider, changed here.
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
    return store.get(DirectoryKeys.view(warehouse, identifier)) != null;
  }

  @Override
  public boolean tableExists(TableIdentifier identifier) {
    return store.get(DirectoryKeys.table(warehouse, identifier)) != null;
  }

  @Override
  public Optional<String> tableLocation(TableIdentifier identifier) {
    byte[] entry = store.get(DirectoryKeys.table(warehouse, identifier));
    return entry == null
        ? Optional.empty()
        : Optional.ofNullable(TableEntry.fromBytes(entry).location());
  }

  @Override
  public Optional<String> locationConflict(String location) {
    for (String prefix :
        List.of(DirectoryKeys.locationPrefix(warehouse), DirectoryKeys.purgePrefix(warehouse))) {
      if (store.get(prefix + location) != null) {
        return Optional.of(location);
      }
      for (String ancestor : TableLocations.ancestors(location)) {
        if (store.get(prefix + ancestor) != null) {
          return Optional.of(ancestor);
        }
      }
      try (KeyValueIterator<String, byte[]> it = store.prefixScan(prefix + location + "/", KEYS)) {
        if (it.hasNext()) {
          return Optional.of(it.next().key.substring(prefix.length()));
        }
      }
    }
    return Optional.empty();
  }

  private boolean any(String prefix) {
    try (KeyValueIterator<String, byte[]> it = store.prefixScan(prefix, KEYS)) {
      return it.hasNext();
    }
  }

  /** Applies a namespace event to the directory (evolve). */
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
      store.delete(DirectoryKeys.purge(warehouse, e.location()));
    } else {
      throw new IllegalArgumentException("Not a directory event: " + event.type());
    }
  }

  /**
   * Claims, moves or releases a table name and its location, in the same transaction that sends the
   * step on.
   */
  void apply(TableStep step) {
    if (applyView(step)) {
      return;
    }
    String key = DirectoryKeys.table(warehouse, step.identifier());
    if (step instanceof MoveTableOutStep s) {
      TableEntry entry = TableEntry.fromBytes(store.get(key));
      store.delete(key);
      String destination = DirectoryKeys.table(warehouse, s.destination());
      store.put(destination, new TableEntry(s.header().commandId(), entry.location()).toBytes());
      if (entry.location() != null) {
        store.put(
            DirectoryKeys.location(warehouse, entry.location()),
            destination.getBytes(StandardCharsets.UTF_8));
      }
    } else if (step instanceof CreateTableStep s) {
      claim(key, s.header().commandId(), s.metadata().location());
    } else if (step instanceof RegisterTableStep s) {
      release(key, false);
      claim(key, s.header().commandId(), s.metadata().location());
    } else if (step instanceof ReleaseTableNameStep s) {
      // Only the claim this command made: a later create of the same name keeps its own.
      byte[] entry = store.get(key);
      if (entry != null && TableEntry.fromBytes(entry).commandId().equals(s.header().commandId())) {
        release(key, false);
      }
    } else if (step instanceof DropTableStep s) {
      release(key, s.purgeRequested());
    }
  }

  /** View names: claimed, moved and released like table names, without a location index. */
  private boolean applyView(TableStep step) {
    if (step instanceof CreateViewStep || step instanceof RegisterViewStep) {
      store.put(
          DirectoryKeys.view(warehouse, step.identifier()),
          new TableEntry(step.header().commandId(), null).toBytes());
    } else if (step instanceof DropViewStep) {
      store.delete(DirectoryKeys.view(warehouse, step.identifier()));
    } else if (step instanceof MoveViewOutStep s) {
      store.delete(DirectoryKeys.view(warehouse, s.source()));
      store.put(
          DirectoryKeys.view(warehouse, s.destination()),
          new TableEntry(s.header().commandId(), null).toBytes());
    } else if (step instanceof ReleaseViewNameStep s) {
      byte[] entry = store.get(DirectoryKeys.view(warehouse, s.identifier()));
      if (entry != null && TableEntry.fromBytes(entry).commandId().equals(s.header().commandId())) {
        store.delete(DirectoryKeys.view(warehouse, s.identifier()));
      }
    } else {
      return false;
    }
    return true;
  }

  private void claim(String key, String commandId, String location) {
    String normal = TableLocations.normalize(location);
    store.put(key, new TableEntry(commandId, normal).toBytes());
    store.put(DirectoryKeys.location(warehouse, normal), key.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Frees a name and its location; a purge keeps the location reserved until its files are gone.
   */
  private void release(String key, boolean purge) {
    byte[] value = store.get(key);
    if (value == null) {
      return;
    }
    String location = TableEntry.fromBytes(value).location();
    store.delete(key);
    if (location != null) {
      store.delete(DirectoryKeys.location(warehouse, location));
      if (purge) {
        store.put(DirectoryKeys.purge(warehouse, location), key.getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  @Override
  public boolean purgePending(String location) {
    return store.get(DirectoryKeys.purge(warehouse, location)) != null;
  }
}
