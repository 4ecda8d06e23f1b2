package dev.floe.projections.replay;

import dev.floe.events.Keys;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.event.TableFilesPurgedEvent;
import dev.floe.events.event.TableRegisteredEvent;
import dev.floe.events.event.TableRenamedEvent;
import dev.floe.events.event.ViewCreatedEvent;
import dev.floe.events.event.ViewDroppedEvent;
import dev.floe.events.event.ViewRegisteredEvent;
import dev.floe.events.event.ViewRenamedEvent;
import dev.floe.events.event.ViewReplacedEvent;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.TableState;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The catalog rebuilt from {@code floe.events} alone: {@link #apply} is the evolve function of
 * every event type. Namespaces and tables are keyed like the live stores.
 */
public final class ReplayState {
  /** A namespace of one warehouse. */
  public record NamespaceRef(String warehouse, Namespace namespace) {}

  /** A table of one warehouse, with its state as the live tables store would hold it. */
  public record ReplayedTable(String warehouse, TableIdentifier identifier, TableState state) {}

  private final Map<NamespaceRef, NamespaceState> namespaces = new HashMap<>();
  private final Map<String, ReplayedTable> tables = new TreeMap<>();
  private final Map<String, ReplayedTable> views = new TreeMap<>();
  private long events;

  public void apply(CatalogEvent event) {
    events++;
    if (event instanceof NamespaceCreatedEvent e) {
      namespaces.put(
          new NamespaceRef(e.warehouse(), e.namespace()),
          new NamespaceState(e.properties(), e.sequence()));
    } else if (event instanceof NamespacePropertiesUpdatedEvent e) {
      NamespaceRef ref = new NamespaceRef(e.warehouse(), e.namespace());
      Map<String, String> properties = new HashMap<>(namespaces.get(ref).properties());
      e.removed().forEach(properties::remove);
      properties.putAll(e.updated());
      namespaces.put(ref, new NamespaceState(properties, e.sequence()));
    } else if (event instanceof NamespaceDroppedEvent e) {
      namespaces.remove(new NamespaceRef(e.warehouse(), e.namespace()));
    } else if (event instanceof TableCreatedEvent e) {
      put(
          e.warehouse(),
          e.identifier(),
          new TableState(
              e.tableUuid(),
              e.metadataLocation(),
              TableMetadataParser.toJson(e.metadata()),
              1,
              e.sequence()));
    } else if (event instanceof TableRegisteredEvent e) {
      TableState previous = table(e.warehouse(), e.identifier());
      int version = previous == null ? 1 : previous.version() + 1;
      put(
          e.warehouse(),
          e.identifier(),
          new TableState(
              e.tableUuid(),
              e.metadataLocation(),
              TableMetadataParser.toJson(e.metadata()),
              version,
              e.sequence()));
    } else if (event instanceof TableCommittedEvent e) {
      commit(e);
    } else if (event instanceof TableDroppedEvent e) {
      tables.remove(Keys.table(e.warehouse(), e.identifier()));
    } else if (event instanceof TableRenamedEvent e) {
      ReplayedTable moved = tables.remove(Keys.table(e.warehouse(), e.from()));
      TableState state = moved.state();
      put(
          e.warehouse(),
          e.to(),
          new TableState(
              state.tableUuid(),
              state.metadataLocation(),
              state.metadataJson(),
              state.version(),
              e.sequence()));
    } else if (event instanceof ViewCreatedEvent e) {
      putView(
          e.warehouse(),
          e.identifier(),
          new TableState(
              e.viewUuid(), e.metadataLocation(), e.metadata().toString(), 1, e.sequence()));
    } else if (event instanceof ViewRegisteredEvent e) {
      putView(
          e.warehouse(),
          e.identifier(),
          new TableState(
              e.viewUuid(), e.metadataLocation(), e.metadata().toString(), 1, e.sequence()));
    } else if (event instanceof ViewReplacedEvent e) {
      TableState previous = view(e.warehouse(), e.identifier());
      org.apache.iceberg.view.ViewMetadata base =
          org.apache.iceberg.view.ViewMetadataParser.fromJson(
              previous.metadataLocation(), previous.metadataJson());
      org.apache.iceberg.view.ViewMetadata.Builder builder =
          org.apache.iceberg.view.ViewMetadata.buildFrom(base);
      e.updates().forEach(update -> update.applyTo(builder));
      String json = org.apache.iceberg.view.ViewMetadataParser.toJson(builder.build());
      putView(
          e.warehouse(),
          e.identifier(),
          new TableState(
              e.viewUuid(), e.metadataLocation(), json, previous.version() + 1, e.sequence()));
    } else if (event instanceof ViewDroppedEvent e) {
      views.remove(Keys.table(e.warehouse(), e.identifier()));
    } else if (event instanceof ViewRenamedEvent e) {
      ReplayedTable moved = views.remove(Keys.table(e.warehouse(), e.from()));
      TableState state = moved.state();
      putView(
          e.warehouse(),
          e.to(),
          new TableState(
              state.tableUuid(),
              state.metadataLocation(),
              state.metadataJson(),
              state.version(),
              e.sequence()));
    } else if (!(event instanceof TableFilesPurgedEvent
        || event instanceof dev.floe.events.event.AccessChangedEvent)) {
      // Access changes are not catalog state: the access store follows them (docs/security.md).
      throw new IllegalArgumentException("No evolve for " + event.type());
    }
  }

  /** Re-applies the recorded updates with Iceberg's builder, as the decider did. */
  private void commit(TableCommittedEvent e) {
    TableState previous = table(e.warehouse(), e.identifier());
    TableMetadata base =
        TableMetadataParser.fromJson(previous.metadataLocation(), previous.metadataJson());
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    for (MetadataUpdate update : e.updates()) {
      update.applyTo(builder);
    }
    String json = TableMetadataParser.toJson(builder.build());
    put(
        e.warehouse(),
        e.identifier(),
        new TableState(
            e.tableUuid(), e.metadataLocation(), json, previous.version() + 1, e.sequence()));
  }

  private void put(String warehouse, TableIdentifier identifier, TableState state) {
    tables.put(Keys.table(warehouse, identifier), new ReplayedTable(warehouse, identifier, state));
  }

  private void putView(String warehouse, TableIdentifier identifier, TableState state) {
    views.put(Keys.table(warehouse, identifier), new ReplayedTable(warehouse, identifier, state));
  }

  public TableState table(String warehouse, TableIdentifier identifier) {
    ReplayedTable table = tables.get(Keys.table(warehouse, identifier));
    return table == null ? null : table.state();
  }

  public TableState view(String warehouse, TableIdentifier identifier) {
    ReplayedTable view = views.get(Keys.table(warehouse, identifier));
    return view == null ? null : view.state();
  }

  public Iterable<ReplayedTable> views() {
    return views.values();
  }

  public Map<NamespaceRef, NamespaceState> namespaces() {
    return Map.copyOf(namespaces);
  }

  public Iterable<ReplayedTable> tables() {
    return tables.values();
  }

  public long eventsApplied() {
    return events;
  }
}
