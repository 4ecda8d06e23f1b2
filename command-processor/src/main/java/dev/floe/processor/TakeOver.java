package dev.floe.processor;

import static dev.floe.events.RejectionCode.TABLE_ALREADY_EXISTS;

import dev.floe.events.Rejection;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.state.DeletedEntity;
import dev.floe.infra.storage.authority.Claims;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.location.InvalidLocationException;
import dev.floe.infra.storage.location.Location;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * When a new placement takes a dropped table's or view's locations over (the entity is kept for its
 * warehouse's recovery period and still holds them): a create or a move of the same name at an
 * overlapping location, a register of its own metadata (its uuid) under its name or by a manager of
 * its namespace. What is taken over is expunged in the same decision, its files retained; nothing
 * else ever overlaps a kept entity's locations.
 */
final class TakeOver {
  private TakeOver() {}

  /**
   * The kept tables of the warehouse that are the table of this uuid: a register of that table's
   * metadata takes their files over, so they are expunged (their data retained) in its decision.
   */
  static List<DeletedEntity> sameTable(Directory directory, String kind, String uuid) {
    if (uuid == null) {
      return List.of();
    }
    return directory.deleted().stream()
        .filter(e -> e.kind().equals(kind) && uuid.equals(e.uuid()))
        .toList();
  }

  /**
   * The kept tables (or views) of this name whose locations {@code location} overlaps. A create of
   * the same name there (a drop and a re-create at an explicit location, as Hive-style {@code
   * CREATE TABLE … LOCATION} and Iceberg's own suites do) takes those locations over: they are
   * expunged in its decision, their data retained, as when a register takes a kept table's files
   * over. A kept entity of another name still holds its locations.
   */
  static List<DeletedEntity> sameNameAt(
      Directory directory,
      LocationAuthority locations,
      String kind,
      TableIdentifier identifier,
      String location) {
    return directory.deleted(identifier).stream()
        .filter(e -> e.kind().equals(kind))
        .filter(e -> overlaps(directory, locations, e, location))
        .toList();
  }

  /** Whether {@code location} equals, contains or lies inside a location the kept entity holds. */
  private static boolean overlaps(
      Directory directory, LocationAuthority locations, DeletedEntity kept, String location) {
    try {
      return locations
          .overlapProblem(Location.parse(location), only(directory.claims(), kept.key()), null)
          .isPresent();
    } catch (InvalidLocationException e) {
      return false; // the placement check refuses it
    }
  }

  /**
   * Why a register may not take these kept entities over, if it may not: under the kept entity's
   * own name (Iceberg's drop and register of the same metadata, which its suites and engines'
   * unregister/register procedures do, by a writer of the namespace), or else only where the caller
   * holds {@code manage} (as an expunge needs); and in both cases only at a location the kept
   * entity holds, so that no two entities ever share a uuid. The message names no namespace the
   * caller did not.
   */
  static Optional<Rejection> takeOverProblem(
      Directory directory,
      LocationAuthority locations,
      List<DeletedEntity> superseded,
      TableIdentifier target,
      List<List<String>> managed,
      String location,
      String what) {
    for (DeletedEntity kept : superseded) {
      List<String> namespace = List.of(kept.identifier().namespace().levels());
      boolean manages =
          managed.stream()
              .anyMatch(
                  scope ->
                      scope.size() <= namespace.size()
                          && namespace.subList(0, scope.size()).equals(scope));
      if (!manages && !kept.identifier().equals(target)) {
        return Optional.of(
            Rejection.of(
                TABLE_ALREADY_EXISTS,
                "The %s's uuid %s belongs to a dropped %s kept for its recovery period: register"
                    + " it under its own name, or as a principal with manage on its namespace (or"
                    + " restore it)",
                what,
                kept.uuid(),
                what));
      }
      if (!overlaps(directory, locations, kept, location)) {
        return Optional.of(
            Rejection.of(
                TABLE_ALREADY_EXISTS,
                "The %s's uuid %s belongs to a dropped %s kept for its recovery period, at another"
                    + " location: a uuid is never given to two %ss",
                what,
                kept.uuid(),
                what,
                what));
      }
    }
    return Optional.empty();
  }

  /**
   * Why an entity may not be created or registered with this uuid, if it may not: another live
   * table or view holds it (a register over the same name with overwrite replaces its own), or a
   * dropped one kept for its recovery period that this decision does not take over. No two entities
   * ever share a uuid; the message names neither.
   */
  static Optional<Rejection> uuidTaken(
      Directory directory,
      String uuid,
      String ownKey,
      String kind,
      List<DeletedEntity> superseded,
      String what) {
    if (uuid == null) {
      return Optional.empty();
    }
    boolean live = directory.uuidHolder(uuid).filter(holder -> !holder.equals(ownKey)).isPresent();
    boolean kept =
        sameTable(directory, kind, uuid).stream()
            .anyMatch(e -> superseded.stream().noneMatch(s -> s.key().equals(e.key())));
    if (live || kept) {
      return Optional.of(
          Rejection.of(
              TABLE_ALREADY_EXISTS,
              "The %s's uuid %s belongs to another %s: a uuid is never given to two %ss",
              what,
              uuid,
              what,
              what));
    }
    return Optional.empty();
  }

  /** The expunges of {@code superseded}, their data retained. */
  static List<CatalogEvent> supersede(
      List<DeletedEntity> superseded, String warehouse, CommandHeader header) {
    return superseded.stream()
        .map(
            e ->
                (CatalogEvent)
                    RecoveryDecider.expunged(
                        warehouse, e, false, header.commandId(), header.principal()))
        .toList();
  }

  /** {@code claims} without the locations the {@code superseded} entities hold. */
  static Claims without(Claims claims, List<DeletedEntity> superseded) {
    if (superseded.isEmpty()) {
      return claims;
    }
    Set<String> holders = Set.copyOf(superseded.stream().map(DeletedEntity::key).toList());
    Predicate<String> kept = holder -> !holders.contains(holder);
    return new Claims() {
      @Override
      public Optional<String> holderAt(String canonical) {
        return claims.holderAt(canonical).filter(kept);
      }

      @Override
      public Optional<String> holderUnder(String canonical, Predicate<String> counts) {
        return claims.holderUnder(canonical, counts.and(kept));
      }
    };
  }

  /** The locations of {@code claims} that {@code holder} holds. */
  private static Claims only(Claims claims, String holder) {
    return new Claims() {
      @Override
      public Optional<String> holderAt(String canonical) {
        return claims.holderAt(canonical).filter(holder::equals);
      }

      @Override
      public Optional<String> holderUnder(String canonical, Predicate<String> counts) {
        return claims.holderUnder(canonical, counts.and(holder::equals));
      }
    };
  }
}
