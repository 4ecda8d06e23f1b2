package dev.floe.processor;

import static dev.floe.events.RejectionCode.NAMESPACE_NOT_FOUND;
import static dev.floe.events.RejectionCode.TABLE_ALREADY_EXISTS;
import static dev.floe.events.RejectionCode.TABLE_NOT_FOUND;
import static dev.floe.events.RejectionCode.VIEW_NOT_FOUND;

import dev.floe.events.CommandReply;
import dev.floe.events.Rejection;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.ExpungeDeletedCommand;
import dev.floe.events.command.RestoreDeletedCommand;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.ExpungeEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.ViewExpungedEvent;
import dev.floe.events.state.DeletedEntity;
import dev.floe.infra.storage.authority.Claims;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.RestoreStep;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Decides what happens to dropped tables and views kept for their warehouse's recovery period:
 * restore, expunge on request, and expiry. Runs on the warehouse key's single writer, which keeps
 * them in its directory, so a name is claimed by one command at a time.
 */
public final class RecoveryDecider {
  /** Who expunges what has expired. */
  public static final String EXPIRY_PRINCIPAL = "floe-expiry";

  private RecoveryDecider() {}

  /**
   * Claims the name (its own, or {@code as}) and the entity's locations again and sends its kept
   * state to that name's key, which installs it and acknowledges. Never over a live table or view.
   */
  static Decision restore(Directory directory, RestoreDeletedCommand c) {
    String id = c.header().commandId();
    Optional<DeletedEntity> found =
        pick(directory, c.kind(), c.identifier(), c.uuid(), entity -> entity.state() != null);
    if (found.isEmpty()) {
      return Decision.rejected(id, notFound(c.kind(), c.identifier(), c.uuid()));
    }
    TableIdentifier target = c.target();
    if (directory.namespace(target.namespace()).isEmpty()) {
      return Decision.rejected(
          id,
          Rejection.of(NAMESPACE_NOT_FOUND, "Namespace does not exist: %s", target.namespace()));
    }
    if (directory.tableExists(target) || directory.viewExists(target)) {
      return Decision.rejected(
          id,
          Rejection.of(
              TABLE_ALREADY_EXISTS,
              "A table or view named %s exists: restore under another name (as)",
              target));
    }
    DeletedEntity entity = found.get();
    return Decision.step(
        new RestoreStep(
            entity.table() ? EntityKind.TABLE : EntityKind.VIEW,
            c.header(),
            c.warehouse(),
            entity.identifier(),
            target,
            entity.state(),
            entity.dropCommandId()));
  }

  /** Ends a kept entity's recovery period now. */
  static Decision expunge(Directory directory, ExpungeDeletedCommand c) {
    String id = c.header().commandId();
    Optional<DeletedEntity> found =
        pick(directory, c.kind(), c.identifier(), c.uuid(), entity -> true);
    if (found.isEmpty()) {
      return Decision.rejected(id, notFound(c.kind(), c.identifier(), c.uuid()));
    }
    ExpungeEvent event =
        expunged(c.warehouse(), found.get(), !c.retainData(), id, c.header().principal());
    return Decision.reply(List.of(event), CommandReply.done(id));
  }

  /**
   * The expunge of every kept entity of the warehouse whose recovery period has ended by {@code
   * nowMs}, each as if its own command: its id follows from the drop, so deciding it again (after a
   * crash) records the same event.
   */
  public static List<ExpungeEvent> expire(Directory directory, String warehouse, long nowMs) {
    return directory.deleted().stream()
        .filter(entity -> entity.expiresAtMs() <= nowMs)
        .map(entity -> expunged(warehouse, entity, true, expiryCommandId(entity), EXPIRY_PRINCIPAL))
        .toList();
  }

  /** The header an expiry is recorded under. */
  public static CommandHeader expiryHeader(String commandId, long nowMs) {
    return new CommandHeader(commandId, nowMs, EXPIRY_PRINCIPAL, "", null);
  }

  static String expiryCommandId(DeletedEntity entity) {
    return UUID.nameUUIDFromBytes(
            ("floe-expiry:" + entity.warehouse() + ":" + entity.dropCommandId())
                .getBytes(StandardCharsets.UTF_8))
        .toString();
  }

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

  /** The expunges of {@code superseded}, their data retained. */
  static List<CatalogEvent> supersede(
      List<DeletedEntity> superseded, String warehouse, CommandHeader header) {
    return superseded.stream()
        .map(
            e ->
                (CatalogEvent)
                    expunged(warehouse, e, false, header.commandId(), header.principal()))
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

  private static ExpungeEvent expunged(
      String warehouse, DeletedEntity entity, boolean mayPurge, String id, String principal) {
    long sequence = entity.state() == null ? 1 : entity.state().sequence() + 1;
    String metadataLocation = entity.state() == null ? null : entity.state().metadataLocation();
    if (entity.table()) {
      return new TableExpungedEvent(
          warehouse,
          entity.identifier(),
          entity.uuid(),
          metadataLocation,
          entity.purgeRequested() && mayPurge,
          entity.dropCommandId(),
          id,
          principal,
          sequence);
    }
    return new ViewExpungedEvent(
        warehouse,
        entity.identifier(),
        entity.uuid(),
        metadataLocation,
        entity.dropCommandId(),
        id,
        principal,
        sequence);
  }

  /** The kept entity a restore or expunge names: by uuid, else the one dropped last. */
  private static Optional<DeletedEntity> pick(
      Directory directory,
      String kind,
      TableIdentifier identifier,
      String uuid,
      Predicate<DeletedEntity> usable) {
    return directory.deleted(identifier).stream()
        .filter(e -> e.kind().equals(kind))
        .filter(usable)
        .filter(e -> uuid == null || uuid.equals(e.uuid()))
        .max(
            Comparator.comparingLong(DeletedEntity::deletedAtMs)
                .thenComparing(DeletedEntity::dropCommandId));
  }

  private static Rejection notFound(String kind, TableIdentifier identifier, String uuid) {
    return Rejection.of(
        DeletedEntity.TABLE.equals(kind) ? TABLE_NOT_FOUND : VIEW_NOT_FOUND,
        "No dropped %s %s%s can be restored or expunged",
        kind,
        identifier,
        uuid == null ? "" : " with uuid " + uuid);
  }
}
