package dev.floe.events.state;

import dev.floe.events.FloeJson;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A dropped table or view kept for its warehouse's recovery period, as the directory holds it under
 * {@link DirectoryKeys#deleted}: its name is free for new entities, but its locations stay claimed
 * for it (held by that key in the location index), its grants stay on its name, and it can be
 * restored as it was until it expires.
 *
 * @param warehouse the warehouse it belongs to
 * @param kind {@code table} or {@code view}
 * @param identifier the name it had when it was dropped
 * @param entry the directory entry it had: the locations it holds
 * @param state its last state (uuid, metadata location, counters; never the document), or null
 *     until its key has handed it over after the drop
 * @param deletedAtMs when the drop was accepted
 * @param expiresAtMs when it is expunged unless restored first
 * @param deletedBy who dropped it
 * @param purgeRequested whether its files are to be deleted when it is expunged
 * @param dropCommandId the drop's command id, which names its key
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
    String dropCommandId) {
  public static final String TABLE = "table";
  public static final String VIEW = "view";

  public DeletedEntity {
    Objects.requireNonNull(warehouse, "warehouse");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(identifier, "identifier");
    Objects.requireNonNull(entry, "entry");
    Objects.requireNonNull(dropCommandId, "dropCommandId");
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
        dropCommandId);
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
