package dev.floe.infra.storage.authority;

import dev.floe.infra.storage.config.StorageConfig;
import dev.floe.infra.storage.config.StorageProfile;
import dev.floe.infra.storage.location.InvalidLocationException;
import dev.floe.infra.storage.location.Location;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The one authority on where Floe may read, write, vend and delete: every such location is decided
 * here, on canonical {@link Location}s, and nothing else compares location strings.
 *
 * <ul>
 *   <li>An entity's <b>storage root</b> is its warehouse's root, or, when it or its namespace binds
 *       a storage profile, the profile's root followed by the warehouse's name (so warehouses that
 *       bind one profile never share a directory).
 *   <li>A namespace's <b>area</b> in a root is the root followed by one directory per namespace
 *       level ({@link #segment}: the level itself when it is a plain name, else a safe form with a
 *       digest of it, so two namespaces never share an area).
 *   <li>A table's or view's location lies strictly inside its namespace's area, and its write paths
 *       inside its location: a writer of one namespace never places files in another's.
 *   <li>A location neither equals, contains nor lies inside a location another entity holds (a live
 *       table or view, or a dropped table whose files wait for the purger).
 *   <li>A register may read only a metadata file inside the storage root it registers into.
 *   <li>The purger deletes only what a dropped entity held, strictly inside a storage root of its
 *       warehouse, and only while no live entity holds any part of it.
 * </ul>
 *
 * Roots of warehouses and profiles may not overlap one another (checked when built).
 */
public final class LocationAuthority {
  /**
   * The table properties that send a table's files elsewhere than its location: each must lie
   * inside it (vended credentials cover the location and nothing else).
   */
  public static final List<String> TABLE_PATH_PROPERTIES =
      List.of(
          "write.data.path",
          "write.metadata.path",
          "write.object-storage.path",
          "write.folder-storage.path");

  /** The view property that sends a view's metadata files elsewhere than its location. */
  public static final List<String> VIEW_PATH_PROPERTIES = List.of("write.metadata.path");

  private final StorageConfig storage;

  public LocationAuthority(StorageConfig storage) {
    this.storage = storage;
    requireDisjointRoots(storage.all());
  }

  public StorageConfig storage() {
    return storage;
  }

  /** The canonical location, or {@link InvalidLocationException} with the reason. */
  public Location parse(String location) {
    return Location.parse(location);
  }

  /**
   * The storage root an entity is placed under: the profile named by its own {@value
   * StorageConfig#PROFILE_PROPERTY} property, else by its namespace's (nearest level first), else
   * the warehouse's root.
   *
   * @param namespaces the properties of the namespace and each ancestor, outermost first
   * @throws IllegalArgumentException when a named profile is not configured, or the warehouse
   */
  public Location root(
      String warehouse, Map<String, String> ownProperties, List<Map<String, String>> namespaces) {
    String profile =
        ownProperties == null ? null : ownProperties.get(StorageConfig.PROFILE_PROPERTY);
    for (int i = namespaces.size() - 1; profile == null && i >= 0; i--) {
      profile = namespaces.get(i).get(StorageConfig.PROFILE_PROPERTY);
    }
    if (profile == null) {
      return warehouseRoot(warehouse);
    }
    String name = profile;
    StorageProfile bound =
        storage
            .profile(name)
            .orElseThrow(
                () -> new UnknownProfileException("Storage profile does not exist: " + name));
    return profileRoot(bound, warehouse);
  }

  /** The warehouse's own storage root. */
  public Location warehouseRoot(String warehouse) {
    StorageProfile profile = storage.warehouse(warehouse);
    if (profile == null) {
      throw new IllegalArgumentException("Unknown warehouse: " + warehouse);
    }
    return Location.parse(profile.root());
  }

  private static Location profileRoot(StorageProfile profile, String warehouse) {
    return Location.parse(profile.root() + "/" + WarehouseSegment.of(warehouse));
  }

  /**
   * The area of a namespace in a storage root: where its tables and views (and those of the
   * namespaces below it) are placed.
   */
  public static Location area(Location root, List<String> namespace) {
    StringBuilder area = new StringBuilder(root.spelling().replaceAll("/+$", ""));
    for (String level : namespace) {
      area.append('/').append(segment(level));
    }
    return Location.parse(area.toString());
  }

  /**
   * The directory of one namespace level: the level itself when it is a plain name (letters,
   * digits, {@code _}, {@code -}, not ending in what looks like a digest or a table's uuid), else a
   * safe form followed by {@code -} and 16 hex digits of its SHA-256. So distinct levels never
   * share a directory, and no level's directory is a default table directory ({@code <name>-<32 hex
   * digits>}).
   */
  public static String segment(String level) {
    if (level.matches("[A-Za-z0-9_-]{1,64}") && !level.matches(".*-[0-9a-f]{16}|.*-[0-9a-f]{32}")) {
      return level;
    }
    return WarehouseSegment.digested(level);
  }

  /**
   * A new entity's default location: {@code <area>/<name>-<uuid>}, never reused. The name part is
   * cut to 100 characters, so the directory's name stays within a file system's 255 bytes for every
   * name Floe accepts (the uuid keeps it unique).
   */
  public static String defaultLocation(Location area, String name, String uuid) {
    String safe = name.replaceAll("[^A-Za-z0-9_-]", "_");
    safe = safe.substring(0, Math.min(safe.length(), 100));
    return area.spelling().replaceAll("/+$", "")
        + "/"
        + (safe.isEmpty() ? "_" : safe)
        + "-"
        + uuid.replace("-", "");
  }

  /** The areas of a namespace in every storage root of this warehouse. */
  public List<Location> areas(String warehouse, List<String> namespace) {
    return roots(warehouse).stream().map(root -> area(root, namespace)).toList();
  }

  /** Every storage root an entity of this warehouse may lie in. */
  public List<Location> roots(String warehouse) {
    List<Location> roots = new ArrayList<>();
    roots.add(warehouseRoot(warehouse));
    for (StorageProfile profile : storage.profiles()) {
      roots.add(profileRoot(profile, warehouse));
    }
    return roots;
  }

  /**
   * Why an entity may not be placed at {@code location} with these write paths, if it may not: the
   * location must parse, lie strictly inside {@code root}, hold every write path, and overlap no
   * location held by anyone but {@code own}. The reason names only the caller's own locations.
   *
   * @param own the holder key of the entity itself (a re-register or a move keeps its own)
   */
  public Optional<String> placementProblem(
      Location root,
      String location,
      Map<String, String> properties,
      Collection<String> pathProperties,
      Claims claims,
      String own) {
    Location parsed;
    try {
      parsed = Location.parse(location);
    } catch (InvalidLocationException e) {
      return Optional.of(e.getMessage());
    }
    if (!root.strictlyContains(parsed)) {
      return Optional.of(
          String.format(
              "Location %s is outside the namespace's storage area %s",
              Location.printable(location), root.spelling()));
    }
    Optional<String> paths = writePathProblem(parsed, properties, pathProperties);
    if (paths.isPresent()) {
      return paths;
    }
    return overlapProblem(parsed, claims, own);
  }

  /** Why the write paths do not all lie inside the location, if they do not. */
  public static Optional<String> writePathProblem(
      Location location, Map<String, String> properties, Collection<String> pathProperties) {
    for (String key : pathProperties) {
      String path = properties == null ? null : properties.get(key);
      if (path == null || path.isBlank()) {
        continue;
      }
      try {
        if (!location.contains(Location.parse(path))) {
          return Optional.of(
              String.format(
                  "Invalid %s %s: must lie inside the location %s",
                  key, Location.printable(path), location.spelling()));
        }
      } catch (InvalidLocationException e) {
        return Optional.of("Invalid " + key + ": " + e.getMessage());
      }
    }
    return Optional.empty();
  }

  /**
   * Why the location overlaps one held by another entity, if it does. The message never names the
   * other entity or its location: the caller may not be allowed to see it.
   */
  public Optional<String> overlapProblem(Location location, Claims claims, String own) {
    Predicate<String> other = holder -> !holder.equals(own);
    boolean overlaps =
        claims.holderAt(location.canonical()).filter(other).isPresent()
            || location.ancestors().stream()
                .anyMatch(a -> claims.holderAt(a).filter(other).isPresent())
            || claims.holderUnder(location.canonical(), other).isPresent();
    return overlaps
        ? Optional.of(
            String.format(
                "Location %s overlaps the location of another table or view: a live one, one"
                    + " dropped and kept for the recovery period, or a dropped table whose files"
                    + " are being purged",
                location.spelling()))
        : Optional.empty();
  }

  /**
   * Why a register may not read this metadata file, if it may not: it must lie strictly inside the
   * storage root the entity is registered into. Decided before the file is opened.
   */
  public Optional<String> readProblem(Location root, String metadataFile) {
    try {
      Location file = Location.parse(metadataFile);
      return root.strictlyContains(file)
          ? Optional.empty()
          : Optional.of(
              String.format(
                  "Metadata file %s is outside the namespace's storage area %s",
                  Location.printable(metadataFile), root.spelling()));
    } catch (InvalidLocationException e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * Why the purger may not delete this location of a dropped entity, if it may not: it must lie
   * strictly inside one of the warehouse's storage roots, and no live entity may hold it, any part
   * of it, or any place around it. Asked again at deletion time.
   *
   * @param live the live entities' locations only (not the purge's own reservation)
   */
  public Optional<String> purgeProblem(String warehouse, String location, Claims live) {
    Location parsed;
    try {
      parsed = Location.parse(location);
    } catch (InvalidLocationException e) {
      return Optional.of(e.getMessage());
    }
    if (roots(warehouse).stream().noneMatch(root -> root.strictlyContains(parsed))) {
      return Optional.of("outside every storage root of warehouse " + warehouse);
    }
    return overlapProblem(parsed, live, null)
        .map(ignored -> "a live table or view holds part of it");
  }

  /**
   * Why the purger may not empty this area of an expired namespace, if it may not: it must lie
   * strictly inside one of the warehouse's storage roots. What live entities hold inside it is
   * spared file by file ({@link #heldByLive}).
   */
  public Optional<String> areaPurgeProblem(String warehouse, String area) {
    Location parsed;
    try {
      parsed = Location.parse(area);
    } catch (InvalidLocationException e) {
      return Optional.of(e.getMessage());
    }
    if (roots(warehouse).stream().noneMatch(root -> root.strictlyContains(parsed))) {
      return Optional.of("outside every storage root of warehouse " + warehouse);
    }
    return Optional.empty();
  }

  /** Whether a live entity holds the file (or a location the file lies in, or under it). */
  public boolean heldByLive(String file, Claims live) {
    try {
      return overlapProblem(Location.parse(file), live, null).isPresent();
    } catch (InvalidLocationException e) {
      return true; // not a place this authority can reason about: never deleted
    }
  }

  /**
   * Whether credentials may be vended for {@code location}: it must lie inside a location the
   * entity holds (the directory checked those against every other entity's).
   */
  public boolean mayVend(String location, Collection<String> held) {
    try {
      Location parsed = Location.parse(location);
      for (String claim : held) {
        if (Location.parse(claim).contains(parsed)) {
          return true;
        }
      }
    } catch (InvalidLocationException e) {
      return false;
    }
    return false;
  }

  /**
   * Whether a request to an object key or a listing of a key prefix ({@code s3://bucket/key}, as
   * the request spells it) stays inside a location the entity holds: under it, never the location's
   * own name (an object {@code …/t} lies beside the files under {@code …/t/}; a prefix {@code …/t}
   * would also list {@code …/t2}); only a key or prefix ending in {@code /} may name the location.
   */
  public boolean mayReach(String prefix, Collection<String> held) {
    try {
      Location parsed = Location.parse(prefix);
      for (String claim : held) {
        Location location = Location.parse(claim);
        if (prefix.endsWith("/") ? location.contains(parsed) : location.strictlyContains(parsed)) {
          return true;
        }
      }
    } catch (InvalidLocationException e) {
      return false;
    }
    return false;
  }

  /**
   * Whether a file lies strictly inside a location the entity holds, and names a file rather than a
   * directory ({@code …/t/} is the location itself): what the catalog may read for the entity with
   * its own credentials, such as a manifest list or a manifest a writer chose the path of.
   */
  public boolean holdsFile(String file, Collection<String> held) {
    return !file.endsWith("/") && mayReach(file, held);
  }

  /** Whether {@code inner} lies inside (or is) {@code outer}, both as spelled. */
  public boolean inside(String outer, String inner) {
    try {
      return Location.parse(outer).contains(Location.parse(inner));
    } catch (InvalidLocationException e) {
      return false;
    }
  }

  private static void requireDisjointRoots(Collection<StorageProfile> all) {
    List<StorageProfile> list = new ArrayList<>(all);
    for (int i = 0; i < list.size(); i++) {
      Location a = Location.parse(list.get(i).root());
      for (int j = i + 1; j < list.size(); j++) {
        Location b = Location.parse(list.get(j).root());
        if (a.overlaps(b)) {
          throw new IllegalArgumentException(
              String.format(
                  "Storage roots of %s (%s) and %s (%s) overlap: every warehouse and storage"
                      + " profile needs a root of its own",
                  list.get(i).name(), a, list.get(j).name(), b));
        }
      }
    }
  }

  /** A storage profile named by an entity or its namespace that is not configured. */
  public static final class UnknownProfileException extends IllegalArgumentException {
    UnknownProfileException(String message) {
      super(message);
    }
  }
}
