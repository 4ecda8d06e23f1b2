package dev.floe.events.state;

import dev.floe.events.FloeJson;
import java.util.Arrays;
import java.util.Objects;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A dropped table, view or namespace kept for its warehouse's recovery period, as the directory
 * holds it under {@link DirectoryKeys#deleted}. A table's or view's name is free for new entities,
 * but its locations stay claimed for it (held by that key in the location index), its grants stay
 * on its name, and it can be restored as it was until it expires. A namespace's name stays held:
 * creating it again restores it in place.
 *
 * @param warehouse the warehouse it belongs to
 * @param kind {@code table}, {@code view} or {@code namespace}
 * @param identifier the name it had when it was dropped; a namespace's is its parent and its last
 *     level ({@link #identifierOf})
 * @param entry the directory entry it had: the locations it holds (none for a namespace)
 * @param state its last state (uuid, metadata location, counters; never the document), or null
 *     until its key has handed it over after the drop
 * @param deletedAtMs when the drop was accepted
 * @param expiresAtMs when it is expunged unless restored first
 * @param deletedBy who dropped it
 * @param purgeRequested whether its files are to be deleted when it is expunged
 * @param dropCommandId the drop's command id, which names its key
 * @param namespaceState a namespace's properties and sequence when it was dropped; null for a table
 *     or view
 */
public record DeletedEntity(
    String warehouse,
    String kind,
    TableIdentifier identifier,
    TableEntry entry,
    TableState state,
    long deletedAtMs,
    long expiresAtMs,
    String deletedBy,
    boolean purgeRequested,
    String dropCommandId,
    NamespaceState namespaceState) {
  public static final String TABLE = "table";
  public static final String VIEW = "view";
  public static final String NAMESPACE = "namespace";

  public DeletedEntity {
    Objects.requireNonNull(warehouse, "warehouse");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(identifier, "identifier");
    Objects.requireNonNull(entry, "entry");
    Objects.requireNonNull(dropCommandId, "dropCommandId");
  }

  /** A dropped table or view. */
  public DeletedEntity(
      String warehouse,
      String kind,
      TableIdentifier identifier,
      TableEntry entry,
      TableState state,
      long deletedAtMs,
      long expiresAtMs,
      String deletedBy,
      boolean purgeRequested,
      String dropCommandId) {
    this(
        warehouse,
        kind,
        identifier,
        entry,
        state,
        deletedAtMs,
        expiresAtMs,
        deletedBy,
        purgeRequested,
        dropCommandId,
        null);
  }

  /** A dropped namespace, kept with its properties. */
  public static DeletedEntity namespace(
      String warehouse,
      Namespace namespace,
      NamespaceState state,
      long deletedAtMs,
      long expiresAtMs,
      String deletedBy,
      String dropCommandId) {
    return new DeletedEntity(
        warehouse,
        NAMESPACE,
        identifierOf(namespace),
        new TableEntry(dropCommandId, null, null),
        null,
        deletedAtMs,
        expiresAtMs,
        deletedBy,
        false,
        dropCommandId,
        state);
  }

  /**
   * How a namespace is named among dropped entities: its parent and its last level, so that it is
   * listed, like a table, among what was dropped in its parent.
   */
  public static TableIdentifier identifierOf(Namespace namespace) {
    String[] levels = namespace.levels();
    return TableIdentifier.of(
        Namespace.of(Arrays.copyOf(levels, levels.length - 1)), levels[levels.length - 1]);
  }

  /** True for a namespace. */
  public boolean isNamespace() {
    return NAMESPACE.equals(kind);
  }

  /** The namespace a dropped namespace was (meaningless for a table or view). */
  public Namespace droppedNamespace() {
    return namespaceOf(identifier);
  }

  /** The namespace that {@link #identifierOf} names. */
  public static Namespace namespaceOf(TableIdentifier identifier) {
    String[] parent = identifier.namespace().levels();
    String[] levels = Arrays.copyOf(parent, parent.length + 1);
    levels[parent.length] = identifier.name();
    return Namespace.of(levels);
  }

  /** True for a table, false for a view. */
  public boolean table() {
    return TABLE.equals(kind);
  }

  /** The uuid it had, or null while its state has not arrived. */
  public String uuid() {
    return state == null ? null : state.tableUuid();
  }

  /** The same entity with its last state. */
  public DeletedEntity withState(TableState last) {
    return new DeletedEntity(
        warehouse,
        kind,
        identifier,
        entry,
        last,
        deletedAtMs,
        expiresAtMs,
        deletedBy,
        purgeRequested,
        dropCommandId,
        namespaceState);
  }

  /** Its key in the directory. */
  public String key() {
    return DirectoryKeys.deleted(warehouse, identifier, kind, dropCommandId);
  }

  public byte[] toBytes() {
    return FloeJson.toBytes(this);
  }

  public static DeletedEntity fromBytes(byte[] bytes) {
    return FloeJson.fromBytes(bytes, DeletedEntity.class);
  }
}
