package dev.floe.processor;

import static dev.floe.events.RejectionCode.TABLE_ALREADY_EXISTS;
import static dev.floe.events.RejectionCode.TABLE_NOT_FOUND;
import static dev.floe.events.RejectionCode.VIEW_NOT_FOUND;

import dev.floe.events.CommandReply;
import dev.floe.events.Rejection;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.event.TableRenamedEvent;
import dev.floe.events.event.TableRestoredEvent;
import dev.floe.events.event.ViewDroppedEvent;
import dev.floe.events.event.ViewRenamedEvent;
import dev.floe.events.event.ViewRestoredEvent;
import dev.floe.events.state.TableState;
import dev.floe.processor.step.DropTableStep;
import dev.floe.processor.step.DropViewStep;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.MoveGrantsStep;
import dev.floe.processor.step.MoveInStep;
import dev.floe.processor.step.MoveOutStep;
import dev.floe.processor.step.ReleaseNameStep;
import dev.floe.processor.step.RestoreStep;
import dev.floe.processor.step.RetainDeletedStep;
import dev.floe.processor.step.Step;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Drop, rename (move out, move in) and restore on a table's or a view's own key, written once for
 * both: they move the entity's state (a pointer to its metadata file) and differ only in the names
 * of their events and of their errors. Pure, like the deciders.
 */
public final class TabularLifecycle {
  private TabularLifecycle() {}

  public static Decision drop(TableState existing, DropTableStep step) {
    return drop(
        EntityKind.TABLE,
        existing,
        step.header(),
        step.warehouse(),
        step.identifier(),
        step.recoverable(),
        step.purgeRequested());
  }

  public static Decision drop(TableState existing, DropViewStep step) {
    return drop(
        EntityKind.VIEW,
        existing,
        step.header(),
        step.warehouse(),
        step.identifier(),
        step.recoverable(),
        false);
  }

  private static Decision drop(
      EntityKind kind,
      TableState existing,
      CommandHeader header,
      String warehouse,
      TableIdentifier identifier,
      boolean recoverable,
      boolean purge) {
    String id = header.commandId();
    if (existing == null) {
      return Decision.rejected(id, notFound(kind, identifier));
    }
    long sequence = existing.sequence() + 1;
    String location = existing.metadataLocation();
    String principal = header.principal();
    String uuid = existing.tableUuid();
    CatalogEvent event =
        switch (kind) {
          case TABLE ->
              new TableDroppedEvent(
                  warehouse, identifier, uuid, location, purge, id, principal, sequence);
          case VIEW ->
              new ViewDroppedEvent(warehouse, identifier, uuid, location, id, principal, sequence);
        };
    List<Step> kept =
        recoverable
            ? List.of(
                new RetainDeletedStep(
                    kind, header, warehouse, identifier, existing.pointerAt(sequence)))
            : List.of();
    // A recoverable drop is acknowledged by the directory once it keeps the state: a restore sent
    // as soon as the client hears of the drop finds it.
    CommandReply reply = kept.isEmpty() ? CommandReply.done(id) : null;
    return new Decision(List.of(event), kept, reply, null, true, false);
  }

  /**
   * Installs a restored table or view under the name the directory claimed for it: the same file,
   * uuid and counters it had when it was dropped. Acknowledged here.
   */
  public static Decision restore(TableState existing, RestoreStep step) {
    String id = step.header().commandId();
    if (existing != null) {
      // Cannot happen while the directory claims names one at a time; refuse rather than clobber.
      return Decision.rejected(id, alreadyExists(step.kind(), step.destination()));
    }
    TableState state = step.state().withSequence(step.state().sequence() + 1);
    CatalogEvent event =
        placed(
            step.kind() == EntityKind.TABLE ? TableRestoredEvent::new : ViewRestoredEvent::new,
            step.header(),
            step.warehouse(),
            step.source(),
            step.destination(),
            state);
    return Decision.restored(event, state, step);
  }

  /**
   * Takes a renamed table's or view's state off its old key and sends it to the new one. When the
   * state is missing (its create failed meanwhile), the destination name is handed back and the
   * rename refused.
   */
  public static Decision moveOut(TableState existing, MoveOutStep step) {
    if (existing == null) {
      return Decision.step(
          new ReleaseNameStep(
              step.kind(),
              step.header(),
              step.warehouse(),
              step.destination(),
              notFound(step.kind(), step.source())));
    }
    return new Decision(
        List.of(),
        List.of(
            new MoveInStep(
                step.kind(),
                step.header(),
                step.warehouse(),
                step.source(),
                step.destination(),
                existing)),
        null,
        null,
        true,
        false);
  }

  /** Installs a renamed table or view under its new key: the rename is acknowledged here. */
  public static Decision moveIn(TableState existing, MoveInStep step) {
    String id = step.header().commandId();
    if (existing != null) {
      // Cannot happen while the directory claims names one at a time; refuse rather than clobber.
      return Decision.rejected(id, alreadyExists(step.kind(), step.destination()));
    }
    // The same file under the new name: the state moves as a pointer.
    TableState state = step.state().withSequence(step.state().sequence() + 1);
    CatalogEvent event =
        placed(
            step.kind() == EntityKind.TABLE ? TableRenamedEvent::new : ViewRenamedEvent::new,
            step.header(),
            step.warehouse(),
            step.source(),
            step.destination(),
            state);
    return Decision.renamed(
        List.of(event),
        state,
        new MoveGrantsStep(step.header(), step.warehouse(), step.source(), step.destination()));
  }

  /** The four events of an entity placed under a name (renamed or restored), of either kind. */
  @FunctionalInterface
  private interface PlacedEvent {
    CatalogEvent of(
        String warehouse,
        TableIdentifier from,
        TableIdentifier to,
        String uuid,
        String metadataLocation,
        String commandId,
        String principal,
        long sequence);
  }

  private static CatalogEvent placed(
      PlacedEvent event,
      CommandHeader header,
      String warehouse,
      TableIdentifier from,
      TableIdentifier to,
      TableState state) {
    return event.of(
        warehouse,
        from,
        to,
        state.tableUuid(),
        state.metadataLocation(),
        header.commandId(),
        header.principal(),
        state.sequence());
  }

  static Rejection notFound(EntityKind kind, TableIdentifier identifier) {
    return switch (kind) {
      case TABLE -> Rejection.of(TABLE_NOT_FOUND, "Table does not exist: %s", identifier);
      case VIEW -> Rejection.of(VIEW_NOT_FOUND, "View does not exist: %s", identifier);
    };
  }

  static Rejection alreadyExists(EntityKind kind, TableIdentifier identifier) {
    return switch (kind) {
      case TABLE -> Rejection.of(TABLE_ALREADY_EXISTS, "Table already exists: %s", identifier);
      case VIEW -> Rejection.of(TABLE_ALREADY_EXISTS, "View already exists: %s", identifier);
    };
  }
}
