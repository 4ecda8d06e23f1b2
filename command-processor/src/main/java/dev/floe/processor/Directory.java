package dev.floe.processor;

import dev.floe.events.state.DeletedEntity;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.TableEntry;
import dev.floe.infra.storage.authority.Claims;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/** What the directory decider may ask of a warehouse's directory. */
public interface Directory {
  Optional<NamespaceState> namespace(Namespace namespace);

  boolean hasChildNamespaces(Namespace namespace);

  boolean hasTables(Namespace namespace);

  boolean hasViews(Namespace namespace);

  boolean tableExists(TableIdentifier identifier);

  boolean viewExists(TableIdentifier identifier);

  /** A claimed table name's entry: who claimed it and the locations it holds. */
  Optional<TableEntry> table(TableIdentifier identifier);

  /** A claimed view name's entry. */
  Optional<TableEntry> view(TableIdentifier identifier);

  /** The key that holds a table's locations in the location index. */
  String tableHolder(TableIdentifier identifier);

  /** The key that holds a view's locations in the location index. */
  String viewHolder(TableIdentifier identifier);

  /**
   * The key of the live table or view holding this uuid ({@link #tableHolder}, {@link
   * #viewHolder}), if one does.
   */
  default Optional<String> uuidHolder(String uuid) {
    return Optional.empty();
  }

  /**
   * Every location held in the warehouse: by live tables and views, and by dropped tables whose
   * files wait for the purger.
   */
  Claims claims();

  /** True while a dropped table's files at this location wait for the purger. */
  boolean purgePending(String location);

  /**
   * How long a dropped table or view is kept, restorable, before it is expunged ({@code
   * floe.warehouse.<w>.recovery-period}); zero when a drop is final at once.
   */
  default Duration recoveryPeriod() {
    return Duration.ZERO;
  }

  /** The dropped tables and views kept for their recovery period that had this name. */
  default List<DeletedEntity> deleted(TableIdentifier identifier) {
    return List.of();
  }

  /** Every dropped table, view and namespace of the warehouse kept for its recovery period. */
  default List<DeletedEntity> deleted() {
    return List.of();
  }

  /** The dropped namespace of this name kept for its recovery period, which holds the name. */
  default Optional<DeletedEntity> deletedNamespace(Namespace namespace) {
    return deleted(DeletedEntity.identifierOf(namespace)).stream()
        .filter(DeletedEntity::isNamespace)
        .findFirst();
  }

  /**
   * What is kept inside a namespace and below it: dropped tables, views and namespaces (not the
   * namespace itself).
   */
  default List<DeletedEntity> deletedWithin(Namespace namespace) {
    return List.of();
  }
}
