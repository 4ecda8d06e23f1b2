package dev.floe.projections.replay;

import dev.floe.events.Keys;
import dev.floe.events.event.AccessChangedEvent;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventVisitor;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespaceEvent;
import dev.floe.events.event.NamespaceExpungedEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.events.event.NamespaceRestoredEvent;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.TableFilesPurgedEvent;
import dev.floe.events.event.TableMaintainedEvent;
import dev.floe.events.event.TablePurgeRefusedEvent;
import dev.floe.events.event.TableRegisteredEvent;
import dev.floe.events.event.TableRenamedEvent;
import dev.floe.events.event.TableRestoredEvent;
import dev.floe.events.event.ViewCreatedEvent;
import dev.floe.events.event.ViewDroppedEvent;
import dev.floe.events.event.ViewExpungedEvent;
import dev.floe.events.event.ViewRegisteredEvent;
import dev.floe.events.event.ViewRenamedEvent;
import dev.floe.events.event.ViewReplacedEvent;
import dev.floe.events.event.ViewRestoredEvent;
import dev.floe.events.state.MetadataDocuments;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.TableState;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;

/**
 * The catalog rebuilt from {@code floe.events} alone: {@link #apply} is the evolve function of
 * every event type. Namespaces and tables are keyed like the live stores.
 *
 * <p>A table is kept as Iceberg's parsed {@link TableMetadata} and each commit is applied to it
 * with Iceberg's builder, as the decider does; its JSON document is written once, when asked for (a
 * store write, a digest, an as-of read), instead of being parsed and rewritten on every commit,
 * which made a replay cost the tables' size times their commits.
 */
public final class ReplayState {
  /** A namespace of one warehouse. */
  public record NamespaceRef(String warehouse, Namespace namespace) {}

  private final Map<NamespaceRef, NamespaceState> namespaces = new HashMap<>();
  private final Map<String, ReplayedTable> tables = new TreeMap<>();
  private final Map<String, ReplayedTable> views = new TreeMap<>();

  /**
   * Dropped tables and views as they were, by warehouse, uuid and metadata file, for a restore
   * ({@code floe.table.restored}) until they are expunged. A drop of a warehouse without a recovery
   * period is never followed by either, so what it keeps here is never used.
   */
  private final Map<String, ReplayedTable> droppedTables = new HashMap<>();

  private final Map<String, ReplayedTable> droppedViews = new HashMap<>();

  private final Lifecycle tableLifecycle = new Lifecycle(tables, droppedTables);
  private final Lifecycle viewLifecycle = new Lifecycle(views, droppedViews);
  private final EventVisitor<Void> evolve = new Evolve();
  private long events;

  public void apply(CatalogEvent event) {
    events++;
    event.accept(evolve);
  }

  /** The evolve function, one method per event type. */
  private final class Evolve implements EventVisitor<Void> {
    @Override
    public Void namespaceCreated(NamespaceCreatedEvent e) {
      evolve(e);
      return null;
    }

    @Override
    public Void namespacePropertiesUpdated(NamespacePropertiesUpdatedEvent e) {
      evolve(e);
      return null;
    }

    @Override
    public Void namespaceDropped(NamespaceDroppedEvent e) {
      evolve(e);
      return null;
    }

    @Override
    public Void namespaceRestored(NamespaceRestoredEvent e) {
      evolve(e);
      return null;
    }

    @Override
    public Void namespaceExpunged(NamespaceExpungedEvent e) {
      evolve(e);
      return null;
    }

    /** The namespace's state as the event says it is after it, as the live directory applies. */
    private void evolve(NamespaceEvent e) {
      NamespaceRef ref = new NamespaceRef(e.warehouse(), e.namespace());
      e.stateAfter(Optional.ofNullable(namespaces.get(ref)))
          .ifPresentOrElse(after -> namespaces.put(ref, after), () -> namespaces.remove(ref));
    }

    @Override
    public Void tableCreated(TableCreatedEvent e) {
      putTable(
          e.warehouse(),
          e.identifier(),
          e.tableUuid(),
          e.metadataLocation(),
          1,
          e.sequence(),
          e.metadata());
      return null;
    }

    @Override
    public Void tableRegistered(TableRegisteredEvent e) {
      ReplayedTable previous = tableEntry(e.warehouse(), e.identifier());
      int version = previous == null ? 1 : previous.version() + 1;
      putTable(
          e.warehouse(),
          e.identifier(),
          e.tableUuid(),
          e.metadataLocation(),
          version,
          e.sequence(),
          e.metadata());
      return null;
    }

    @Override
    public Void tableCommitted(TableCommittedEvent e) {
      commit(e);
      return null;
    }

    @Override
    public Void tableDropped(TableDroppedEvent e) {
      tableLifecycle.drop(
          e.warehouse(), e.identifier(), e.tableUuid(), e.metadataLocation(), e.sequence());
      return null;
    }

    @Override
    public Void tableRenamed(TableRenamedEvent e) {
      tableLifecycle.rename(e.warehouse(), e.from(), e.to(), e.sequence());
      return null;
    }

    @Override
    public Void tableRestored(TableRestoredEvent e) {
      tableLifecycle.restore(
          e.warehouse(), e.tableUuid(), e.metadataLocation(), e.to(), e.sequence());
      return null;
    }

    @Override
    public Void tableExpunged(TableExpungedEvent e) {
      tableLifecycle.expunge(e.warehouse(), e.tableUuid(), e.metadataLocation());
      return null;
    }

    @Override
    public Void tableFilesPurged(TableFilesPurgedEvent e) {
      return null; // the files, not the catalog
    }

    @Override
    public Void tablePurgeRefused(TablePurgeRefusedEvent e) {
      return null; // the files, not the catalog
    }

    @Override
    public Void tableMaintained(TableMaintainedEvent e) {
      return null; // the files, not the catalog (the expiry's commit is its own event)
    }

    @Override
    public Void viewCreated(ViewCreatedEvent e) {
      putView(
          e.warehouse(),
          e.identifier(),
          new TableState(
              e.viewUuid(), e.metadataLocation(), e.metadata().toString(), 1, e.sequence()));
      return null;
    }

    @Override
    public Void viewRegistered(ViewRegisteredEvent e) {
      putView(
          e.warehouse(),
          e.identifier(),
          new TableState(
              e.viewUuid(), e.metadataLocation(), e.metadata().toString(), 1, e.sequence()));
      return null;
    }

    @Override
    public Void viewReplaced(ViewReplacedEvent e) {
      TableState previous = view(e.warehouse(), e.identifier());
      ViewMetadata base =
          ViewMetadataParser.fromJson(previous.metadataLocation(), previous.metadataJson());
      ViewMetadata.Builder builder = ViewMetadata.buildFrom(base);
      e.updates().forEach(update -> update.applyTo(builder));
      String json = ViewMetadataParser.toJson(builder.build());
      putView(
          e.warehouse(),
          e.identifier(),
          new TableState(
              e.viewUuid(), e.metadataLocation(), json, previous.version() + 1, e.sequence()));
      return null;
    }

    @Override
    public Void viewDropped(ViewDroppedEvent e) {
      viewLifecycle.drop(
          e.warehouse(), e.identifier(), e.viewUuid(), e.metadataLocation(), e.sequence());
      return null;
    }

    @Override
    public Void viewRenamed(ViewRenamedEvent e) {
      viewLifecycle.rename(e.warehouse(), e.from(), e.to(), e.sequence());
      return null;
    }

    @Override
    public Void viewRestored(ViewRestoredEvent e) {
      viewLifecycle.restore(
          e.warehouse(), e.viewUuid(), e.metadataLocation(), e.to(), e.sequence());
      return null;
    }

    @Override
    public Void viewExpunged(ViewExpungedEvent e) {
      viewLifecycle.expunge(e.warehouse(), e.viewUuid(), e.metadataLocation());
      return null;
    }

    @Override
    public Void accessChanged(AccessChangedEvent e) {
      return null; // not catalog state: the access store follows it (docs/security.md)
    }
  }

  /**
   * Re-applies the recorded updates with Iceberg's builder, as the decider did. The decider's base
   * is parsed back from the store with its location, which the builder records in the new {@code
   * metadata-log}: the kept metadata has no location, so it is set here. The result keeps no
   * pending changes (a builder carries its base's changes on, and Iceberg would then drop the
   * earlier commits' snapshots from the {@code snapshot-log} as a transaction's intermediate ones).
   */
  private void commit(TableCommittedEvent e) {
    ReplayedTable previous = tableEntry(e.warehouse(), e.identifier());
    TableMetadata.Builder builder =
        TableMetadata.buildFrom(previous.metadata())
            .setPreviousFileLocation(previous.metadataLocation());
    for (MetadataUpdate update : e.updates()) {
      update.applyTo(builder);
    }
    putTable(
        e.warehouse(),
        e.identifier(),
        e.tableUuid(),
        e.metadataLocation(),
        previous.version() + 1,
        e.sequence(),
        builder.discardChanges().build());
  }

  private void putTable(
      String warehouse,
      TableIdentifier identifier,
      String uuid,
      String location,
      int version,
      long sequence,
      TableMetadata metadata) {
    tables.put(
        Keys.table(warehouse, identifier),
        new ReplayedTable(
            warehouse, identifier, uuid, location, version, sequence, metadata, null));
  }

  private void putView(String warehouse, TableIdentifier identifier, TableState state) {
    views.put(
        Keys.table(warehouse, identifier),
        new ReplayedTable(
            warehouse,
            identifier,
            state.tableUuid(),
            state.metadataLocation(),
            state.version(),
            state.sequence(),
            null,
            state.metadataJson()));
  }

  /**
   * Drop, rename, restore and expunge, the same for tables and views: the entity moves between its
   * live map, keyed by name, and its dropped map, keyed by warehouse, uuid and metadata file.
   */
  private record Lifecycle(Map<String, ReplayedTable> live, Map<String, ReplayedTable> dropped) {
    void drop(String warehouse, TableIdentifier name, String uuid, String location, long sequence) {
      ReplayedTable entity = live.remove(Keys.table(warehouse, name));
      if (entity != null) {
        dropped.put(
            dropKey(warehouse, uuid, location), entity.renamed(entity.identifier(), sequence));
      }
    }

    void rename(String warehouse, TableIdentifier from, TableIdentifier to, long sequence) {
      ReplayedTable moved = live.remove(Keys.table(warehouse, from));
      live.put(Keys.table(warehouse, to), moved.renamed(to, sequence));
    }

    void restore(
        String warehouse, String uuid, String location, TableIdentifier to, long sequence) {
      ReplayedTable kept = dropped.remove(dropKey(warehouse, uuid, location));
      live.put(Keys.table(warehouse, to), kept.renamed(to, sequence));
    }

    void expunge(String warehouse, String uuid, String location) {
      dropped.remove(dropKey(warehouse, uuid, location));
    }
  }

  private static String dropKey(String warehouse, String uuid, String metadataLocation) {
    return warehouse + "\n" + uuid + "\n" + metadataLocation;
  }

  /** A dropped table kept for a restore, without serialising its metadata: for ordering checks. */
  ReplayedTable droppedTable(String warehouse, String uuid, String metadataLocation) {
    return droppedTables.get(dropKey(warehouse, uuid, metadataLocation));
  }

  ReplayedTable droppedView(String warehouse, String uuid, String metadataLocation) {
    return droppedViews.get(dropKey(warehouse, uuid, metadataLocation));
  }

  /** The table's entry without serialising its metadata: for ordering checks. */
  ReplayedTable tableEntry(String warehouse, TableIdentifier identifier) {
    return tables.get(Keys.table(warehouse, identifier));
  }

  ReplayedTable viewEntry(String warehouse, TableIdentifier identifier) {
    return views.get(Keys.table(warehouse, identifier));
  }

  public TableState table(String warehouse, TableIdentifier identifier) {
    ReplayedTable table = tableEntry(warehouse, identifier);
    return table == null ? null : table.state();
  }

  /** A table's state whose document is its metadata file as written (see {@link ReplayedTable}). */
  public TableState table(String warehouse, TableIdentifier identifier, MetadataDocuments files) {
    ReplayedTable table = tableEntry(warehouse, identifier);
    return table == null ? null : table.storedState(files);
  }

  public TableState view(String warehouse, TableIdentifier identifier) {
    ReplayedTable view = viewEntry(warehouse, identifier);
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
