package dev.floe.processor;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Rules for table locations: each table has its own; a requested one must lie inside the warehouse
 * and must neither equal, contain, nor sit inside another table's (or a location whose files are
 * still being purged). Locations are compared in a normal form: no trailing {@code /}, {@code
 * file:/x} written as {@code file:///x}.
 */
public final class TableLocations {
  private TableLocations() {}

  public static String normalize(String location) {
    String normal = location.trim();
    if (normal.startsWith("file:/") && !normal.startsWith("file:///")) {
      normal = "file:///" + normal.substring("file:/".length()).replaceFirst("^/+", "");
    }
    while (normal.endsWith("/") && !normal.endsWith("://")) {
      normal = normal.substring(0, normal.length() - 1);
    }
    return normal;
  }

  /** Why a location may not be used at all, if it may not (relative segments, empty). */
  public static Optional<String> malformed(String location) {
    String path =
        location.contains("://") ? location.substring(location.indexOf("://") + 3) : location;
    for (String segment : path.split("/")) {
      if (segment.equals("..") || segment.equals(".")) {
        return Optional.of("Invalid location " + location + ": relative segments are not allowed");
      }
    }
    return path.isBlank() ? Optional.of("Invalid location: empty") : Optional.empty();
  }

  /**
   * The table properties that send a table's files elsewhere than its location. Vended credentials
   * cover the table's location only, so each must lie inside it.
   */
  public static final List<String> PATH_PROPERTIES =
      List.of(
          "write.data.path",
          "write.metadata.path",
          "write.object-storage.path",
          "write.folder-storage.path");

  /** Why a table's location or write paths are not acceptable, if they are not. */
  public static Optional<String> invalidPaths(
      String location, java.util.Map<String, String> props) {
    String normal = normalize(location);
    Optional<String> malformed = malformed(normal);
    if (malformed.isPresent()) {
      return malformed;
    }
    for (String key : PATH_PROPERTIES) {
      String path = props.get(key);
      if (path == null || path.isBlank()) {
        continue;
      }
      String normalPath = normalize(path);
      Optional<String> bad = malformed(normalPath);
      if (bad.isPresent()) {
        return bad;
      }
      if (!normalPath.equals(normal) && !normalPath.startsWith(normal + "/")) {
        return Optional.of(
            String.format(
                "Invalid %s %s: must lie inside the table location %s", key, normalPath, normal));
      }
    }
    return Optional.empty();
  }

  /** True when a change of metadata moves where the table's files go. */
  public static boolean pathsChanged(
      String baseLocation,
      java.util.Map<String, String> baseProps,
      String location,
      java.util.Map<String, String> props) {
    if (!java.util.Objects.equals(baseLocation, location)) {
      return true;
    }
    for (String key : PATH_PROPERTIES) {
      if (!java.util.Objects.equals(baseProps.get(key), props.get(key))) {
        return true;
      }
    }
    return false;
  }

  public static boolean isInside(String root, String location) {
    String normalRoot = normalize(root);
    return location.startsWith(normalRoot + "/");
  }

  /** Every proper ancestor of a location, at {@code /} boundaries after the scheme. */
  public static List<String> ancestors(String location) {
    List<String> ancestors = new ArrayList<>();
    int start = location.contains("://") ? location.indexOf("://") + 3 : 0;
    for (int i = location.indexOf('/', start); i > 0; i = location.indexOf('/', i + 1)) {
      ancestors.add(location.substring(0, i));
    }
    return ancestors;
  }
}
