package dev.floe.projections.events;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The filters of an events request. Within one filter the values are alternatives; the filters
 * given must all match. An empty filter matches everything.
 *
 * @param operationTypes the operation types, e.g. {@code update-table}, {@code
 *     x-floe-restore-table}
 * @param names catalog objects by name: each a level-by-level prefix of an object's name (its
 *     namespace levels, then its own name for a table or view): {@code ["a","b"]} matches namespace
 *     {@code a.b}, everything in it and below, not {@code a.bc}
 * @param uuids catalog objects by uuid (tables and views)
 * @param objectTypes {@code namespace}, {@code table}, {@code view}
 * @param principals Floe's custom filter {@code principal}: who made the change
 */
public record EventFilter(
    Set<String> operationTypes,
    Set<List<String>> names,
    Set<String> uuids,
    Set<String> objectTypes,
    Set<String> principals) {
  public static final EventFilter NONE =
      new EventFilter(Set.of(), Set.of(), Set.of(), Set.of(), Set.of());

  public EventFilter {
    operationTypes = Set.copyOf(operationTypes);
    names = Set.copyOf(names.stream().map(List::copyOf).toList());
    uuids = Set.copyOf(uuids);
    objectTypes = Set.copyOf(objectTypes);
    principals = Set.copyOf(principals);
  }

  /** Whether the change passes every filter. */
  public boolean matches(CatalogObjectEvent event) {
    if (!operationTypes.isEmpty() && !operationTypes.contains(event.operationType())) {
      return false;
    }
    if (!objectTypes.isEmpty()
        && (event.objectType() == null || !objectTypes.contains(event.objectType()))) {
      return false;
    }
    if (!uuids.isEmpty() && (event.uuid() == null || !uuids.contains(event.uuid()))) {
      return false;
    }
    if (!principals.isEmpty() && !principals.contains(event.actor())) {
      return false;
    }
    if (!names.isEmpty()) {
      // Each of the name's prefixes looked up: as cheap for many names as for one.
      for (List<String> name : event.names()) {
        for (int length = 1; length <= name.size(); length++) {
          if (names.contains(name.subList(0, length))) {
            return true;
          }
        }
      }
      return false;
    }
    return true;
  }

  /**
   * A digest of the filters, in a canonical form (order of values does not count): a continuation
   * token is good for the filters it was issued for only.
   */
  public String digest() {
    ObjectNode canonical = FloeJson.mapper().createObjectNode();
    sortedArray(canonical.putArray("o"), operationTypes);
    ArrayNode byName = canonical.putArray("n");
    TreeMap<String, List<String>> sorted = new TreeMap<>();
    names.forEach(name -> sorted.put(String.join("\u001f", name), name));
    for (List<String> name : sorted.values()) {
      ArrayNode levels = byName.addArray();
      name.forEach(levels::add);
    }
    sortedArray(canonical.putArray("u"), uuids);
    sortedArray(canonical.putArray("t"), objectTypes);
    sortedArray(canonical.putArray("p"), principals);
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(FloeJson.toBytes(canonical));
      return HexFormat.of().formatHex(hash, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void sortedArray(ArrayNode array, Set<String> values) {
    new TreeSet<>(values).forEach(array::add);
  }
}
