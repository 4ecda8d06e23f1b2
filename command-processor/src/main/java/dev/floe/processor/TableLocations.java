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
