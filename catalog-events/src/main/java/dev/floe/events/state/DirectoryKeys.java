package dev.floe.events.state;

import dev.floe.events.Keys;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Keys inside the directory store. They all live on the warehouse key's partition, and sort so that
 * a prefix scan lists a namespace's children or tables:
 *
 * <pre>
 *   n/&lt;warehouse&gt;/&lt;ns1&gt;.&lt;ns2&gt;          a namespace ({@link NamespaceState})
 *   t/&lt;warehouse&gt;/&lt;ns1&gt;.&lt;ns2&gt;/&lt;table&gt;  a table name claimed in that namespace
 *   v/&lt;warehouse&gt;/&lt;ns1&gt;.&lt;ns2&gt;/&lt;view&gt;   a view name claimed in that namespace
 *   l/&lt;warehouse&gt;/&lt;location&gt;              a live table's location (value: its table key)
 *   p/&lt;warehouse&gt;/&lt;location&gt;              a dropped table's location awaiting purge
 *   d/&lt;warehouse&gt;/&lt;ns&gt;/&lt;name&gt;/&lt;kind&gt;:&lt;drop&gt;  a dropped table, view or namespace in its
 *                                         recovery period (a namespace under its parent)
 *   u/&lt;warehouse&gt;/&lt;uuid&gt;                  a live table's or view's uuid (value: its table or view key)
 *   x/&lt;warehouse&gt;                         the multi-table transaction coordinator's state
 * </pre>
 *
 * Parts are percent-encoded by {@link Keys}, so {@code .} and {@code /} inside names never clash
 * with the separators.
 */
public final class DirectoryKeys {
  private DirectoryKeys() {}

  public static String namespace(String warehouse, Namespace namespace) {
    return "n/" + Keys.warehouse(warehouse) + "/" + Keys.namespace(namespace);
  }

  /** Prefix of every namespace key in a warehouse. */
  public static String namespacePrefix(String warehouse) {
    return "n/" + Keys.warehouse(warehouse) + "/";
  }

  public static String table(String warehouse, TableIdentifier identifier) {
    return tablePrefix(warehouse, identifier.namespace())
        + Keys.namespace(Namespace.of(identifier.name()));
  }

  public static String view(String warehouse, TableIdentifier identifier) {
    return viewPrefix(warehouse, identifier.namespace())
        + Keys.namespace(Namespace.of(identifier.name()));
  }

  /** Prefix of every view key in one namespace. */
  public static String viewPrefix(String warehouse, Namespace namespace) {
    return "v/" + Keys.warehouse(warehouse) + "/" + Keys.namespace(namespace) + "/";
  }

  /** Prefix of every table key in one namespace. */
  public static String tablePrefix(String warehouse, Namespace namespace) {
    return "t/" + Keys.warehouse(warehouse) + "/" + Keys.namespace(namespace) + "/";
  }

  public static String location(String warehouse, String location) {
    return locationPrefix(warehouse) + location;
  }

  public static String locationPrefix(String warehouse) {
    return "l/" + Keys.warehouse(warehouse) + "/";
  }

  /** The live table or view holding a uuid. */
  public static String uuid(String warehouse, String uuid) {
    return "u/" + Keys.warehouse(warehouse) + "/" + uuid;
  }

  public static String purge(String warehouse, String location) {
    return purgePrefix(warehouse) + location;
  }

  public static String purgePrefix(String warehouse) {
    return "p/" + Keys.warehouse(warehouse) + "/";
  }

  /** An expired namespace's area waiting for the purger ({@link PendingAreaPurge}). */
  public static String areaPurge(String warehouse, String location) {
    return areaPurgePrefix(warehouse) + location;
  }

  public static String areaPurgePrefix(String warehouse) {
    return "a/" + Keys.warehouse(warehouse) + "/";
  }

  /**
   * A dropped table or view kept for its recovery period ({@link DeletedEntity}), named by the
   * drop's command id: several dropped entities of one name are kept apart.
   */
  public static String deleted(
      String warehouse, TableIdentifier identifier, String kind, String dropCommandId) {
    return deletedPrefix(warehouse, identifier) + kind + ":" + dropCommandId;
  }

  /** A dropped namespace kept for its recovery period: among what was dropped in its parent. */
  public static String deletedNamespace(
      String warehouse, Namespace namespace, String dropCommandId) {
    return deleted(
        warehouse, DeletedEntity.identifierOf(namespace), DeletedEntity.NAMESPACE, dropCommandId);
  }

  /** Prefix of every dropped table or view once named {@code identifier}. */
  public static String deletedPrefix(String warehouse, TableIdentifier identifier) {
    return deletedPrefix(warehouse, identifier.namespace())
        + Keys.namespace(Namespace.of(identifier.name()))
        + "/";
  }

  /** Prefix of every dropped table or view of one namespace. */
  public static String deletedPrefix(String warehouse, Namespace namespace) {
    return deletedPrefix(warehouse) + Keys.namespace(namespace) + "/";
  }

  /**
   * Prefix of every dropped table, view or namespace in a namespace below {@code namespace} (not in
   * {@code namespace} itself).
   */
  public static String deletedBelow(String warehouse, Namespace namespace) {
    return deletedPrefix(warehouse) + Keys.namespace(namespace) + ".";
  }

  /** Prefix of every dropped table or view of a warehouse. */
  public static String deletedPrefix(String warehouse) {
    return DELETED + Keys.warehouse(warehouse) + "/";
  }

  /** Prefix of every dropped table or view kept for its recovery period, of every warehouse. */
  public static final String DELETED = "d/";

  /** The multi-table transaction coordinator: the active transaction and those queued behind it. */
  public static String transactions(String warehouse) {
    return "x/" + Keys.warehouse(warehouse);
  }

  /** The namespace a key made by {@link #namespace} names. */
  public static Namespace namespaceOf(String warehouse, String key) {
    return Namespace.of(decodeParts(key.substring(namespacePrefix(warehouse).length())));
  }

  /** The table name at the end of a key made by {@link #table}. */
  public static String tableNameOf(String key) {
    return decode(key.substring(key.lastIndexOf('/') + 1));
  }

  private static String[] decodeParts(String encoded) {
    List<String> parts = new ArrayList<>();
    for (String part : encoded.split("\\.", -1)) {
      parts.add(decode(part));
    }
    return parts.toArray(new String[0]);
  }

  private static String decode(String part) {
    return URLDecoder.decode(part, StandardCharsets.UTF_8);
  }
}
