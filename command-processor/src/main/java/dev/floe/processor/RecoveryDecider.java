package dev.floe.processor;

import static dev.floe.events.RejectionCode.NAMESPACE_ALREADY_EXISTS;
import static dev.floe.events.RejectionCode.NAMESPACE_NOT_FOUND;
import static dev.floe.events.RejectionCode.TABLE_ALREADY_EXISTS;
import static dev.floe.events.RejectionCode.TABLE_NOT_FOUND;
import static dev.floe.events.RejectionCode.VIEW_NOT_FOUND;

import dev.floe.events.CommandReply;
import dev.floe.events.Rejection;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CreateNamespaceCommand;
import dev.floe.events.command.ExpungeDeletedCommand;
import dev.floe.events.command.RestoreDeletedCommand;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.NamespaceExpungedEvent;
import dev.floe.events.event.NamespaceRestoredEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.ViewExpungedEvent;
import dev.floe.events.state.DeletedEntity;
import dev.floe.events.state.NamespaceState;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.location.Location;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.RestoreStep;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Decides what happens to dropped tables, views and namespaces kept for their warehouse's recovery
 * period: restore, expunge on request, and expiry. Runs on the warehouse key's single writer, which
 * keeps them in its directory, so a name is claimed by one command at a time.
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
    if (DeletedEntity.NAMESPACE.equals(c.kind())) {
      return restoreNamespace(directory, c);
    }
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

  /**
   * A dropped namespace restored in place, with its properties; its grants and visibility stay on
   * its name, so they apply again. Its parent must be live: a namespace is restored top down.
   */
  private static Decision restoreNamespace(Directory directory, RestoreDeletedCommand c) {
    String id = c.header().commandId();
    Namespace namespace = DeletedEntity.namespaceOf(c.identifier());
    Optional<DeletedEntity> found = directory.deletedNamespace(namespace);
    if (found.isEmpty()) {
      return Decision.rejected(id, notFound(c.kind(), c.identifier(), null));
    }
    if (directory.namespace(namespace).isPresent()) {
      return Decision.rejected(
          id, Rejection.of(NAMESPACE_ALREADY_EXISTS, "Namespace already exists: %s", namespace));
    }
    Optional<Rejection> parentMissing = DirectoryDecider.requireParent(directory, namespace);
    if (parentMissing.isPresent()) {
      return Decision.rejected(id, parentMissing.get());
    }
    NamespaceState state = found.get().namespaceState();
    return restoredNamespace(c.warehouse(), found.get(), state.properties(), c.header());
  }

  /**
   * Creating a namespace whose dropped predecessor still holds the name restores that one in place
   * (its storage area, grants and visibility) with exactly the create's properties, as any create
   * answers: a dropped namespace holds nothing live, so {@code DROP SCHEMA s CASCADE; CREATE SCHEMA
   * s} works. What is kept inside it stays kept, restorable into it, and expires on its own
   * schedule; the old properties stay in the log, on the drop's namespace.
   */
  static Decision recreate(DeletedEntity kept, CreateNamespaceCommand c) {
    return restoredNamespace(c.warehouse(), kept, c.properties(), c.header());
  }

  private static Decision restoredNamespace(
      String warehouse, DeletedEntity kept, Map<String, String> properties, CommandHeader header) {
    NamespaceRestoredEvent event =
        new NamespaceRestoredEvent(
            warehouse,
            kept.droppedNamespace(),
            properties,
            kept.dropCommandId(),
            header.commandId(),
            header.principal(),
            kept.namespaceState().sequence() + 2);
    return Decision.reply(List.of(event), CommandReply.namespace(header.commandId(), properties));
  }

  /** Ends a kept entity's recovery period now; a namespace's ends what is kept inside it too. */
  static Decision expunge(
      Directory directory, LocationAuthority locations, ExpungeDeletedCommand c) {
    String id = c.header().commandId();
    Optional<DeletedEntity> found =
        DeletedEntity.NAMESPACE.equals(c.kind())
            ? directory.deletedNamespace(DeletedEntity.namespaceOf(c.identifier()))
            : pick(directory, c.kind(), c.identifier(), c.uuid(), entity -> true);
    if (found.isEmpty()) {
      return Decision.rejected(id, notFound(c.kind(), c.identifier(), c.uuid()));
    }
    List<CatalogEvent> events =
        withContents(directory, found.get()).stream()
            .map(
                e ->
                    expunged(
                        c.warehouse(),
                        e,
                        !c.retainData(),
                        id,
                        c.header().principal(),
                        areas(locations, c.warehouse(), e, !c.retainData())))
            .toList();
    return Decision.reply(events, CommandReply.done(id));
  }

  /**
   * The expunge of every kept entity of the warehouse whose recovery period has ended by {@code
   * nowMs} (with what is kept inside an expired namespace), each as if its own command: its id
   * follows from the drop, so deciding it again (after a crash) records the same event.
   */
  public static List<CatalogEvent> expire(
      Directory directory, LocationAuthority locations, String warehouse, long nowMs) {
    Map<String, DeletedEntity> expired = new LinkedHashMap<>();
    for (DeletedEntity entity : directory.deleted()) {
      if (entity.expiresAtMs() <= nowMs) {
        withContents(directory, entity).forEach(e -> expired.putIfAbsent(e.key(), e));
      }
    }
    List<CatalogEvent> events = new ArrayList<>();
    List<CatalogEvent> namespaces = new ArrayList<>();
    for (DeletedEntity entity : expired.values()) {
      CatalogEvent event =
          expunged(
              warehouse,
              entity,
              true,
              expiryCommandId(entity),
              EXPIRY_PRINCIPAL,
              areas(locations, warehouse, entity, true));
      (entity.isNamespace() ? namespaces : events).add(event);
    }
    // A namespace after what it held, the deepest first.
    namespaces.sort(
        Comparator.comparingInt(
            (CatalogEvent e) -> -((NamespaceExpungedEvent) e).namespace().length()));
    events.addAll(namespaces);
    return events;
  }

  /**
   * A kept entity; for a namespace, what is kept inside it first (tables and views, then
   * namespaces, the deepest first), then the namespace.
   */
  private static List<DeletedEntity> withContents(Directory directory, DeletedEntity entity) {
    if (!entity.isNamespace()) {
      return List.of(entity);
    }
    List<DeletedEntity> all = new ArrayList<>(directory.deletedWithin(entity.droppedNamespace()));
    all.sort(
        Comparator.comparing(DeletedEntity::isNamespace)
            .thenComparingInt(e -> -e.identifier().namespace().length()));
    all.add(entity);
    return all;
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
   * The storage areas of an expunged namespace whose files are to be deleted: its area in every
   * storage root of the warehouse, as the location authority places them; none for a table or a
   * view (their own locations are purged, when asked for), or with {@code retain-data}.
   */
  static List<String> areas(
      LocationAuthority locations, String warehouse, DeletedEntity entity, boolean mayPurge) {
    if (!entity.isNamespace() || !mayPurge || locations == null) {
      return List.of();
    }
    return locations.areas(warehouse, List.of(entity.droppedNamespace().levels())).stream()
        .map(Location::canonical)
        .toList();
  }

  static CatalogEvent expunged(
      String warehouse, DeletedEntity entity, boolean mayPurge, String id, String principal) {
    return expunged(warehouse, entity, mayPurge, id, principal, List.of());
  }

  static CatalogEvent expunged(
      String warehouse,
      DeletedEntity entity,
      boolean mayPurge,
      String id,
      String principal,
      List<String> purgedAreas) {
    if (entity.isNamespace()) {
      return new NamespaceExpungedEvent(
          warehouse,
          entity.droppedNamespace(),
          entity.dropCommandId(),
          id,
          principal,
          entity.namespaceState().sequence() + 2,
          purgedAreas);
    }
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
    if (DeletedEntity.NAMESPACE.equals(kind)) {
      return Rejection.of(
          NAMESPACE_NOT_FOUND,
          "No dropped namespace %s can be restored or expunged",
          DeletedEntity.namespaceOf(identifier));
    }
    return Rejection.of(
        DeletedEntity.TABLE.equals(kind) ? TABLE_NOT_FOUND : VIEW_NOT_FOUND,
        "No dropped %s %s%s can be restored or expunged",
        kind,
        identifier,
        uuid == null ? "" : " with uuid " + uuid);
  }
}
