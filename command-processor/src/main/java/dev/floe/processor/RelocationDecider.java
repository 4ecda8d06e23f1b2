package dev.floe.processor;

import static dev.floe.events.RejectionCode.INVALID_REQUEST;
import static dev.floe.events.RejectionCode.TABLE_NOT_FOUND;
import static dev.floe.events.RejectionCode.VIEW_NOT_FOUND;

import dev.floe.events.Rejection;
import dev.floe.events.command.CatalogCommand;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.command.CommitViewCommand;
import dev.floe.events.command.RelocateCommand;
import dev.floe.events.state.DeletedEntity;
import dev.floe.events.state.TableEntry;
import dev.floe.infra.storage.authority.Claims;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.location.InvalidLocationException;
import dev.floe.infra.storage.location.Location;
import dev.floe.processor.step.CommitRelocatedStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The directory's half of a commit that moves where a table's or view's files go: on the warehouse
 * key, every new location is checked by the location authority (strictly inside one of the
 * warehouse's storage roots, overlapping no other entity's location) and held for the entity from
 * then on; the entity's key then decides the commit itself. A location asked for stays held by the
 * entity even when the commit is then refused: its writer may already have put files there.
 */
public final class RelocationDecider {
  private RelocationDecider() {}

  /** True when a commit's updates move files: a new location or a write path. */
  public static boolean relocates(CatalogCommand change) {
    return !requested(change).isEmpty();
  }

  static Decision relocate(Directory directory, LocationAuthority locations, RelocateCommand c) {
    String id = c.header().commandId();
    boolean view = c.change() instanceof CommitViewCommand;
    TableIdentifier identifier = identifier(c.change());
    Optional<TableEntry> entry = view ? directory.view(identifier) : directory.table(identifier);
    if (entry.isEmpty()) {
      return Decision.rejected(
          id,
          view
              ? Rejection.of(VIEW_NOT_FOUND, "View does not exist: %s", identifier)
              : Rejection.of(TABLE_NOT_FOUND, "Table does not exist: %s", identifier));
    }
    String own = view ? directory.viewHolder(identifier) : directory.tableHolder(identifier);
    List<String> held = new ArrayList<>(entry.get().held());
    // Kept entities of the same name give their locations over, as to a create of that name.
    List<DeletedEntity> superseded = new ArrayList<>();
    for (String location : requested(c.change())) {
      for (DeletedEntity kept :
          TakeOver.sameNameAt(
              directory,
              locations,
              view ? DeletedEntity.VIEW : DeletedEntity.TABLE,
              identifier,
              location)) {
        if (!superseded.contains(kept)) {
          superseded.add(kept);
        }
      }
    }
    Claims claims = TakeOver.without(directory.claims(), superseded);
    for (String location : requested(c.change())) {
      Optional<String> problem;
      try {
        problem =
            claimable(
                claims,
                locations,
                c.warehouse(),
                List.of(identifier.namespace().levels()),
                held,
                location,
                own);
      } catch (InvalidLocationException e) {
        problem = Optional.of(e.getMessage());
      }
      if (problem.isPresent()) {
        return Decision.rejected(id, new Rejection(INVALID_REQUEST, problem.get()));
      }
      if (!locations.mayVend(location, held)) {
        held.add(location);
      }
    }
    return Decision.step(
        TakeOver.supersede(superseded, c.warehouse(), c.header()),
        new CommitRelocatedStep(c.header(), c.warehouse(), identifier, c.change(), held));
  }

  /** Why the entity may not hold this location too, if it may not. */
  private static Optional<String> claimable(
      Claims claims,
      LocationAuthority locations,
      String warehouse,
      List<String> namespace,
      List<String> held,
      String location,
      String own) {
    Location parsed = locations.parse(location);
    if (locations.mayVend(location, held)) {
      return Optional.empty();
    }
    if (locations.areas(warehouse, namespace).stream()
        .noneMatch(area -> area.strictlyContains(parsed))) {
      return Optional.of(
          "Location " + parsed.spelling() + " is outside the namespace's storage areas");
    }
    return locations.overlapProblem(parsed, claims, own);
  }

  /** The locations a commit asks its files to go to: its new location, its new write paths. */
  static List<String> requested(CatalogCommand change) {
    List<MetadataUpdate> updates;
    List<String> pathProperties;
    if (change instanceof CommitTableCommand commit) {
      updates = commit.updates();
      pathProperties = LocationAuthority.TABLE_PATH_PROPERTIES;
    } else if (change instanceof CommitViewCommand commit) {
      updates = commit.updates();
      pathProperties = LocationAuthority.VIEW_PATH_PROPERTIES;
    } else {
      return List.of();
    }
    List<String> requested = new ArrayList<>();
    for (MetadataUpdate update : updates) {
      if (update instanceof MetadataUpdate.SetLocation set) {
        requested.add(set.location());
      } else if (update instanceof MetadataUpdate.SetProperties set) {
        for (String key : pathProperties) {
          String path = set.updated().get(key);
          if (path != null && !path.isBlank()) {
            requested.add(path);
          }
        }
      }
    }
    return requested;
  }

  private static TableIdentifier identifier(CatalogCommand change) {
    return change instanceof CommitTableCommand commit
        ? commit.identifier()
        : ((CommitViewCommand) change).identifier();
  }
}
