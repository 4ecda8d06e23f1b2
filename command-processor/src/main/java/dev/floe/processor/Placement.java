package dev.floe.processor;

import static dev.floe.events.RejectionCode.INVALID_REQUEST;

import dev.floe.events.Rejection;
import dev.floe.infra.storage.authority.Claims;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.location.InvalidLocationException;
import dev.floe.infra.storage.location.Location;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;

/**
 * Where a new or moved table or view may go, decided on the warehouse key by the location authority
 * against the directory's namespaces (their storage profiles) and its location index.
 */
final class Placement {
  private Placement() {}

  /**
   * The storage area of an entity in this namespace with these properties: its namespace's area in
   * its storage root. {@link IllegalArgumentException} when it names a storage profile that is not
   * configured.
   */
  static Location area(
      Directory directory,
      LocationAuthority locations,
      String warehouse,
      Namespace namespace,
      Map<String, String> properties) {
    List<Map<String, String>> levels = new ArrayList<>();
    for (int i = 1; i <= namespace.length(); i++) {
      Namespace level = Namespace.of(Arrays.copyOf(namespace.levels(), i));
      levels.add(directory.namespace(level).map(n -> n.properties()).orElse(Map.of()));
    }
    return LocationAuthority.area(
        locations.root(warehouse, properties, levels), List.of(namespace.levels()));
  }

  /**
   * Why the entity may not be placed at {@code location}, as a rejection: outside its root, write
   * paths outside the location, or overlapping another entity's location.
   */
  static Optional<Rejection> check(
      Directory directory,
      LocationAuthority locations,
      Location root,
      String location,
      Map<String, String> properties,
      Collection<String> pathProperties,
      String own) {
    return check(directory.claims(), locations, root, location, properties, pathProperties, own);
  }

  /** {@link #check} against these claims. */
  static Optional<Rejection> check(
      Claims claims,
      LocationAuthority locations,
      Location root,
      String location,
      Map<String, String> properties,
      Collection<String> pathProperties,
      String own) {
    return locations
        .placementProblem(root, location, properties, pathProperties, claims, own)
        .map(problem -> new Rejection(INVALID_REQUEST, problem));
  }

  /**
   * {@link #check} in the area of the entity's namespace for these properties; an unknown storage
   * profile is a rejection too.
   */
  static Optional<Rejection> checkInArea(
      Directory directory,
      Claims claims,
      LocationAuthority locations,
      String warehouse,
      Namespace namespace,
      String location,
      Map<String, String> properties,
      Collection<String> pathProperties,
      String own) {
    try {
      Location area = area(directory, locations, warehouse, namespace, properties);
      return check(claims, locations, area, location, properties, pathProperties, own);
    } catch (RuntimeException e) {
      return Optional.of(Rejection.invalid(e));
    }
  }

  /**
   * Why a register may not take this metadata file and location, if it may not: the file inside the
   * namespace's area (so no other namespace's file is read), the location placed as a new entity's,
   * and the file inside the location.
   *
   * @param claims the locations held in the warehouse that it must not overlap
   * @param what {@code table} or {@code view}, for the message
   */
  static Optional<Rejection> checkRegistered(
      Directory directory,
      Claims claims,
      LocationAuthority locations,
      String warehouse,
      Namespace namespace,
      String metadataFile,
      String location,
      Map<String, String> properties,
      Collection<String> pathProperties,
      String own,
      String what) {
    try {
      Location area = area(directory, locations, warehouse, namespace, properties);
      Optional<String> unreadable = locations.readProblem(area, metadataFile);
      if (unreadable.isPresent()) {
        return Optional.of(new Rejection(INVALID_REQUEST, unreadable.get()));
      }
      Optional<Rejection> placement =
          check(claims, locations, area, location, properties, pathProperties, own);
      if (placement.isPresent()) {
        return placement;
      }
      if (!locations.inside(location, metadataFile)) {
        return Optional.of(
            Rejection.of(
                INVALID_REQUEST,
                "Metadata file %s is outside the %s's location %s",
                metadataFile,
                what,
                location));
      }
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of(Rejection.invalid(e));
    }
  }

  /**
   * Why a commit decided on the entity's own key may not send its files where it does: without the
   * directory, only inside the locations the entity already holds ({@code held}; for a commit that
   * came straight to the entity's key, its current location, which it holds).
   */
  static Optional<Rejection> staysWithin(
      Collection<String> held,
      String location,
      Map<String, String> properties,
      Collection<String> pathProperties) {
    List<String> paths = new ArrayList<>();
    paths.add(location);
    for (String key : pathProperties) {
      String path = properties.get(key);
      if (path != null && !path.isBlank()) {
        paths.add(path);
      }
    }
    try {
      List<Location> within = held.stream().map(Location::parse).toList();
      for (String path : paths) {
        Location parsed = Location.parse(path);
        if (within.stream().noneMatch(h -> h.contains(parsed))) {
          return Optional.of(
              new Rejection(
                  INVALID_REQUEST,
                  "Cannot move files to "
                      + parsed.spelling()
                      + " in this commit: a new location must be claimed first (send set-location"
                      + " or the write path alone, not in a multi-table transaction)"));
        }
      }
    } catch (InvalidLocationException e) {
      return Optional.of(new Rejection(INVALID_REQUEST, e.getMessage()));
    }
    return Optional.empty();
  }
}
