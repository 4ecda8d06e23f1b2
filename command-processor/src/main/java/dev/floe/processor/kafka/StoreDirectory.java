package dev.floe.processor.kafka;

import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.events.state.DirectoryKeys;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.TableEntry;
import dev.floe.processor.Directory;
import dev.floe.processor.step.CreateTableStep;
import dev.floe.processor.step.MoveTableOutStep;
import dev.floe.processor.step.RegisterTableStep;
import dev.floe.processor.step.ReleaseTableNameStep;
import dev.floe.processor.step.TableStep;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** One warehouse's directory in the processor's RocksDB store: read by the decider, changed here. */
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
  public boolean tableExists(TableIdentifier identifier) {
    return store.get(DirectoryKeys.table(warehouse, identifier)) != null;
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
    } else {
      throw new IllegalArgumentException("Not a directory event: " + event.type());
    }
  }

  /** Claims or releases a table name, in the same transaction that sends the step on. */
  void apply(TableStep step) {
    String key = DirectoryKeys.table(warehouse, step.identifier());
    if (step instanceof MoveTableOutStep s) {
      store.delete(key);
      store.put(
          DirectoryKeys.table(warehouse, s.destination()), new TableEntry(s.header().commandId()).toBytes());
    } else if (step instanceof CreateTableStep || step instanceof RegisterTableStep) {
      store.put(key, new TableEntry(step.header().commandId()).toBytes());
    } else if (step instanceof ReleaseTableNameStep s) {
      // Only the claim this create made: a later create of the same name keeps its own.
      byte[] entry = store.get(key);
      if (entry != null && TableEntry.fromBytes(entry).commandId().equals(s.header().commandId())) {
        store.delete(key);
      }
    } else {
      store.delete(key);
    }
  }


}
