package dev.floe.events;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Kafka record keys. A key decides the partition, and so the single writer that decides every
 * command for that key.
 *
 * <ul>
 *   <li>The warehouse key ({@code default}) owns the warehouse's directory: its namespaces and the
 *       membership of every table name. All membership changes of a warehouse are decided there,
 *       one at a time, which keeps "no table without its namespace" and "no drop of a non-empty
 *       namespace" true without a lock.
 *   <li>The table key ({@code default/db.sales/orders}) owns one table's metadata. Commits go
 *       straight to it.
 * </ul>
 *
 * Each name part is percent-encoded (and {@code .} as {@code %2E}), so names containing {@code .}
 * or {@code /} never collide.
 */
public final class Keys {
  private Keys() {}

  public static String warehouse(String warehouse) {
    return encode(warehouse);
  }

  public static String table(String warehouse, TableIdentifier identifier) {
    return encode(warehouse)
        + "/"
        + namespace(identifier.namespace())
        + "/"
        + encode(identifier.name());
  }

  /**
   * The table a key of the tables store names in this warehouse, if it names one (not a prepared
   * part, not another warehouse's table).
   */
  public static Optional<TableIdentifier> tableOf(String warehouse, String key) {
    String prefix = encode(warehouse) + "/";
    if (!key.startsWith(prefix)) {
      return Optional.empty();
    }
    String[] parts = key.substring(prefix.length()).split("/", -1);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      return Optional.empty();
    }
    List<String> levels = new ArrayList<>();
    for (String level : parts[0].split("\\.", -1)) {
      levels.add(URLDecoder.decode(level, StandardCharsets.UTF_8));
    }
    TableIdentifier table =
        TableIdentifier.of(
            Namespace.of(levels.toArray(String[]::new)),
            URLDecoder.decode(parts[1], StandardCharsets.UTF_8));
    return table(warehouse, table).equals(key) ? Optional.of(table) : Optional.empty();
  }

  /** The first key of a warehouse's tables in the tables store, and one past the last. */
  public static String[] tableRange(String warehouse) {
    return new String[] {encode(warehouse) + "/", encode(warehouse) + "0"};
  }

  /**
   * Where the tables store keeps a table's prepared part of a multi-table transaction, beside the
   * table's own state ({@code #} is always encoded inside names, so this never names a table).
   */
  public static String prepared(String tableKey) {
    return tableKey + "#prepared";
  }

  public static String namespace(Namespace namespace) {
    List<String> parts = new ArrayList<>();
    for (String level : namespace.levels()) {
      parts.add(encode(level));
    }
    return String.join(".", parts);
  }

  /** The key of the access-control state: principals, tokens, grants, visibility (one writer). */
  public static final String ACCESS = "~access";

  /** One name part, percent-encoded as in every key. */
  public static String part(String part) {
    return encode(part);
  }

  private static String encode(String part) {
    return URLEncoder.encode(part, StandardCharsets.UTF_8).replace(".", "%2E").replace("+", "%20");
  }
}
