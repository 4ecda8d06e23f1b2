package dev.floe.processor;

import static dev.floe.events.RejectionCode.REQUIREMENT_FAILED;
import static dev.floe.events.RejectionCode.TABLE_ALREADY_EXISTS;
import static dev.floe.events.RejectionCode.VIEW_NOT_FOUND;

import dev.floe.events.CommandReply;
import dev.floe.events.Rejection;
import dev.floe.events.command.CommitViewCommand;
import dev.floe.events.event.ViewCreatedEvent;
import dev.floe.events.event.ViewRegisteredEvent;
import dev.floe.events.event.ViewReplacedEvent;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.processor.step.CreateViewStep;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.RegisterViewStep;
import dev.floe.processor.step.ReleaseNameStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;

/**
 * Decides the commands on one view's key, like {@link TableDecider} for tables and like Iceberg's
 * {@code CatalogHandlers.commit} for views: requirements against the latest view metadata, then the
 * updates through {@link ViewMetadata#buildFrom}. State is a {@link TableState} whose document is
 * view metadata.
 */
public final class ViewDecider {
  private ViewDecider() {}

  public static Decision commit(TableState state, CommitViewCommand c) {
    return commit(state, c, List.of());
  }

  /**
   * @param held locations the directory let this commit move the view's files into, besides its
   *     current location
   */
  public static Decision commit(TableState state, CommitViewCommand c, List<String> held) {
    String id = c.header().commandId();
    if (state == null) {
      return Decision.rejected(
          id, Rejection.of(VIEW_NOT_FOUND, "View does not exist: %s", c.identifier()));
    }
    ViewMetadata base = ViewMetadataParser.fromJson(state.metadataLocation(), state.metadataJson());
    try {
      for (UpdateRequirement requirement : c.requirements()) {
        requirement.validate(base);
      }
    } catch (CommitFailedException e) {
      return Decision.rejected(id, new Rejection(REQUIREMENT_FAILED, e.getMessage()));
    }
    ViewMetadata updated;
    try {
      ViewMetadata.Builder builder = ViewMetadata.buildFrom(base);
      for (MetadataUpdate update : c.updates()) {
        update.applyTo(builder);
      }
      updated = builder.build();
    } catch (RuntimeException e) {
      return Decision.rejected(id, Rejection.invalid(e));
    }
    Optional<Rejection> moved = checkMoved(base, updated, held);
    if (moved.isPresent()) {
      return Decision.rejected(id, moved.get());
    }
    if (updated.changes().isEmpty()) {
      return Decision.reply(List.of(), CommandReply.table(id, state.metadataLocation()));
    }
    String location = ViewNameDecider.metadataLocation(updated, state.version(), id);
    String json = ViewMetadataParser.toJson(updated);
    TableState next =
        new TableState(updated.uuid(), location, json, state.version() + 1, state.sequence() + 1);
    ViewReplacedEvent event =
        new ViewReplacedEvent(
            c.warehouse(),
            c.identifier(),
            updated.uuid(),
            c.requirements(),
            c.updates(),
            state.metadataLocation(),
            location,
            id,
            c.header().principal(),
            next.sequence());
    return Decision.table(List.of(event), CommandReply.table(id, location), next);
  }

  /** As for a table: a view's files go only where it holds locations. */
  private static Optional<Rejection> checkMoved(
      ViewMetadata base, ViewMetadata updated, List<String> held) {
    boolean moved = !Objects.equals(base.location(), updated.location());
    for (String key : LocationAuthority.VIEW_PATH_PROPERTIES) {
      moved |= !Objects.equals(base.properties().get(key), updated.properties().get(key));
    }
    if (!moved) {
      return Optional.empty();
    }
    List<String> within = new ArrayList<>(held);
    within.add(base.location());
    return Placement.staysWithin(
        within, updated.location(), updated.properties(), LocationAuthority.VIEW_PATH_PROPERTIES);
  }

  public static Decision create(TableState existing, CreateViewStep step) {
    String id = step.header().commandId();
    if (existing != null) {
      return Decision.step(
          new ReleaseNameStep(
              EntityKind.VIEW,
              step.header(),
              step.warehouse(),
              step.identifier(),
              Rejection.of(TABLE_ALREADY_EXISTS, "View already exists: %s", step.identifier())));
    }
    String json = step.metadata().toString();
    String uuid = step.metadata().path("view-uuid").asText();
    TableState state = new TableState(uuid, step.metadataLocation(), json, 1, 1);
    ViewCreatedEvent event =
        new ViewCreatedEvent(
            step.warehouse(),
            step.identifier(),
            uuid,
            step.metadataLocation(),
            step.metadata(),
            id,
            step.header().principal(),
            1);
    return Decision.table(List.of(event), CommandReply.table(id, step.metadataLocation()), state);
  }

  public static Decision register(TableState existing, RegisterViewStep step) {
    String id = step.header().commandId();
    if (existing != null) {
      return Decision.rejected(
          id, Rejection.of(TABLE_ALREADY_EXISTS, "View already exists: %s", step.identifier()));
    }
    String json = step.metadata().toString();
    String uuid = step.metadata().path("view-uuid").asText();
    TableState state = new TableState(uuid, step.metadataLocation(), json, 1, 1);
    ViewRegisteredEvent event =
        new ViewRegisteredEvent(
            step.warehouse(),
            step.identifier(),
            uuid,
            step.metadataLocation(),
            step.metadata(),
            id,
            step.header().principal(),
            1);
    return new Decision(
        List.of(event),
        List.of(),
        CommandReply.table(id, step.metadataLocation()),
        state,
        false,
        false);
  }
}
