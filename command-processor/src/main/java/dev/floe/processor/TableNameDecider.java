package dev.floe.processor;

import static dev.floe.events.RejectionCode.INVALID_REQUEST;
import static dev.floe.events.RejectionCode.REQUIREMENT_FAILED;
import static dev.floe.events.RejectionCode.TABLE_ALREADY_EXISTS;

import dev.floe.events.CommandReply;
import dev.floe.events.Rejection;
import dev.floe.events.command.CreateTableCommand;
import dev.floe.events.command.CreateTableTransactionCommand;
import dev.floe.events.command.DropTableCommand;
import dev.floe.events.command.RegisterTableCommand;
import dev.floe.events.state.DeletedEntity;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.location.Location;
import dev.floe.processor.step.CreateTableStep;
import dev.floe.processor.step.DropTableStep;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.RegisterTableStep;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.exceptions.CommitFailedException;

/**
 * The name half of every table command that changes a namespace's membership: create (plain,
 * staged, and the commit of a create transaction), register, drop and rename. Runs on the warehouse
 * key's single writer, so a name is claimed or released by one command at a time.
 */
final class TableNameDecider {
  private TableNameDecider() {}

  static Decision create(Directory directory, LocationAuthority locations, CreateTableCommand c) {
    String id = c.header().commandId();
    Optional<Rejection> refused =
        TabularNames.requireFreeName(directory, EntityKind.TABLE, c.identifier());
    if (refused.isPresent()) {
      return Decision.rejected(id, refused.get());
    }
    NewTable table;
    Location root;
    try {
      root =
          Placement.area(
              directory, locations, c.warehouse(), c.identifier().namespace(), c.properties());
      table = NewTable.build(c, root.spelling());
    } catch (RuntimeException e) {
      // Iceberg's ValidationException and IllegalArgumentException, an unknown storage profile, a
      // malformed location: the request is invalid.
      return Decision.rejected(id, Rejection.invalid(e));
    }
    List<DeletedEntity> superseded =
        TakeOver.sameNameAt(
            directory, locations, DeletedEntity.TABLE, c.identifier(), table.metadata().location());
    Optional<Rejection> badLocation =
        Placement.check(
            TakeOver.without(directory.claims(), superseded),
            locations,
            root,
            table.metadata().location(),
            table.metadata().properties(),
            LocationAuthority.TABLE_PATH_PROPERTIES,
            directory.tableHolder(c.identifier()));
    if (badLocation.isPresent()) {
      return Decision.rejected(id, badLocation.get());
    }
    if (c.stageCreate()) {
      // A staged create claims nothing: the table appears only with its transaction's commit.
      return Decision.reply(
          List.of(), CommandReply.staged(id, TableMetadataParser.toJson(table.metadata())));
    }
    return Decision.step(
        TakeOver.supersede(superseded, c.warehouse(), c.header()),
        new CreateTableStep(
            c.header(), c.warehouse(), c.identifier(), table.metadata(), table.metadataLocation()));
  }

  /** Mirrors Iceberg's {@code CatalogHandlers.create}: build from empty, apply the updates. */
  static Decision createTransaction(
      Directory directory, LocationAuthority locations, CreateTableTransactionCommand c) {
    String id = c.header().commandId();
    if (directory.namespace(c.identifier().namespace()).isEmpty()) {
      return Decision.rejected(id, TabularNames.namespaceMissing(c.identifier().namespace()));
    }
    if (directory.tableExists(c.identifier())) {
      return Decision.rejected(
          id, new Rejection(REQUIREMENT_FAILED, "Requirement failed: table already exists"));
    }
    if (directory.viewExists(c.identifier())) {
      return Decision.rejected(
          id,
          Rejection.of(
              TABLE_ALREADY_EXISTS, "View with same name already exists: %s", c.identifier()));
    }
    TableMetadata metadata;
    try {
      for (UpdateRequirement requirement : c.requirements()) {
        requirement.validate((TableMetadata) null);
      }
      TableMetadata.Builder builder =
          c.updates().stream()
              .filter(MetadataUpdate.UpgradeFormatVersion.class::isInstance)
              .map(u -> ((MetadataUpdate.UpgradeFormatVersion) u).formatVersion())
              .findFirst()
              .map(TableMetadata::buildFromEmpty)
              .orElseGet(TableMetadata::buildFromEmpty);
      Authorship.stamp(c.updates(), c.header().principal())
          .forEach(update -> update.applyTo(builder));
      metadata = builder.build();
    } catch (CommitFailedException e) {
      return Decision.rejected(id, new Rejection(REQUIREMENT_FAILED, e.getMessage()));
    } catch (RuntimeException e) {
      return Decision.rejected(id, Rejection.invalid(e));
    }
    if (metadata.location() == null) {
      return Decision.rejected(
          id, new Rejection(INVALID_REQUEST, "Cannot create a table without a location"));
    }
    List<DeletedEntity> superseded =
        TakeOver.sameNameAt(
            directory, locations, DeletedEntity.TABLE, c.identifier(), metadata.location());
    Optional<Rejection> uuidTaken =
        TakeOver.uuidTaken(
            directory,
            metadata.uuid(),
            directory.tableHolder(c.identifier()),
            DeletedEntity.TABLE,
            superseded,
            "table");
    if (uuidTaken.isPresent()) {
      return Decision.rejected(id, uuidTaken.get());
    }
    Optional<Rejection> badLocation =
        Placement.checkInArea(
            directory,
            TakeOver.without(directory.claims(), superseded),
            locations,
            c.warehouse(),
            c.identifier().namespace(),
            metadata.location(),
            metadata.properties(),
            LocationAuthority.TABLE_PATH_PROPERTIES,
            directory.tableHolder(c.identifier()));
    if (badLocation.isPresent()) {
      return Decision.rejected(id, badLocation.get());
    }
    return Decision.step(
        TakeOver.supersede(superseded, c.warehouse(), c.header()),
        new CreateTableStep(
            c.header(),
            c.warehouse(),
            c.identifier(),
            metadata,
            NewTable.metadataLocation(metadata, 0, id)));
  }

  static Decision register(
      Directory directory, LocationAuthority locations, RegisterTableCommand c) {
    String id = c.header().commandId();
    if (directory.namespace(c.identifier().namespace()).isEmpty()) {
      return Decision.rejected(id, TabularNames.namespaceMissing(c.identifier().namespace()));
    }
    if (directory.tableExists(c.identifier()) && !c.overwrite()) {
      return Decision.rejected(
          id, Rejection.of(TABLE_ALREADY_EXISTS, "Table already exists: %s", c.identifier()));
    }
    if (directory.viewExists(c.identifier())) {
      return Decision.rejected(
          id,
          Rejection.of(
              TABLE_ALREADY_EXISTS, "View with same name already exists: %s", c.identifier()));
    }
    // Re-registering a table over itself keeps its own location; a dropped table kept for its
    // recovery period whose metadata this is gives its files over (Registration).
    Registration placed =
        Registration.decide(
            directory,
            locations,
            new Registration.Request(
                EntityKind.TABLE,
                c.warehouse(),
                c.identifier(),
                c.managedNamespaces(),
                c.metadata().uuid(),
                c.metadata().location(),
                c.metadataLocation(),
                c.metadata().properties()));
    if (placed.refused().isPresent()) {
      return Decision.rejected(id, placed.refused().get());
    }
    List<DeletedEntity> superseded = placed.superseded();
    return Decision.step(
        TakeOver.supersede(superseded, c.warehouse(), c.header()),
        new RegisterTableStep(
            c.header(),
            c.warehouse(),
            c.identifier(),
            c.metadata(),
            c.metadataLocation(),
            c.overwrite()));
  }

  static Decision drop(Directory directory, DropTableCommand c) {
    Optional<Rejection> missing =
        TabularNames.requireExisting(directory, EntityKind.TABLE, c.identifier());
    if (missing.isPresent()) {
      return Decision.rejected(c.header().commandId(), missing.get());
    }
    return Decision.step(
        new DropTableStep(
            c.header(),
            c.warehouse(),
            c.identifier(),
            c.purgeRequested(),
            TabularNames.expiresAt(directory, c.header().timestampMillis())));
  }
}
