package dev.floe.processor;

import static dev.floe.events.RejectionCode.INVALID_REQUEST;

import dev.floe.events.Rejection;
import dev.floe.events.state.DeletedEntity;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.processor.step.EntityKind;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Where a register of an existing metadata file may place its table or view, decided once for both
 * kinds: a dropped entity kept for its recovery period whose metadata this is (the same uuid) gives
 * its files over, to a caller who registers it under its own name or manages its namespace, at a
 * location it holds; no two entities share a uuid; the metadata file lies inside the namespace's
 * area and inside the entity's location, and the location is placed as a new entity's would be.
 *
 * @param refused why the register may not place it there, if it may not
 * @param superseded the kept entities it takes over (expunged in its decision, their data retained)
 */
record Registration(Optional<Rejection> refused, List<DeletedEntity> superseded) {

  /** What a register asks to place. */
  record Request(
      EntityKind kind,
      String warehouse,
      TableIdentifier identifier,
      List<List<String>> managedNamespaces,
      String uuid,
      String location,
      String metadataFile,
      Map<String, String> properties) {}

  static Registration decide(Directory directory, LocationAuthority locations, Request r) {
    String what = noun(r.kind());
    if (r.location() == null) {
      return refuse(new Rejection(INVALID_REQUEST, "Invalid " + what + " metadata: no location"));
    }
    String kept = r.kind() == EntityKind.TABLE ? DeletedEntity.TABLE : DeletedEntity.VIEW;
    String own =
        r.kind() == EntityKind.TABLE
            ? directory.tableHolder(r.identifier())
            : directory.viewHolder(r.identifier());
    List<DeletedEntity> superseded = TakeOver.sameTable(directory, kept, r.uuid());
    Optional<Rejection> refused =
        TakeOver.takeOverProblem(
                directory,
                locations,
                superseded,
                r.identifier(),
                r.managedNamespaces(),
                r.location(),
                what)
            .or(() -> TakeOver.uuidTaken(directory, r.uuid(), own, kept, superseded, what))
            .or(
                () ->
                    Placement.checkRegistered(
                        directory,
                        TakeOver.without(directory.claims(), superseded),
                        locations,
                        r.warehouse(),
                        r.identifier().namespace(),
                        r.metadataFile(),
                        r.location(),
                        r.properties(),
                        r.kind() == EntityKind.TABLE
                            ? LocationAuthority.TABLE_PATH_PROPERTIES
                            : LocationAuthority.VIEW_PATH_PROPERTIES,
                        own,
                        what));
    return new Registration(refused, superseded);
  }

  private static Registration refuse(Rejection rejection) {
    return new Registration(Optional.of(rejection), List.of());
  }

  private static String noun(EntityKind kind) {
    return switch (kind) {
      case TABLE -> "table";
      case VIEW -> "view";
    };
  }
}
