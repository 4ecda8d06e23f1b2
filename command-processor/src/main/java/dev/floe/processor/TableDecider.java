package dev.floe.processor;

import static dev.floe.events.RejectionCode.INVALID_REQUEST;
import static dev.floe.events.RejectionCode.REQUIREMENT_FAILED;
import static dev.floe.events.RejectionCode.TABLE_ALREADY_EXISTS;
import static dev.floe.events.RejectionCode.TABLE_NOT_FOUND;

import dev.floe.events.CommandReply;
import dev.floe.events.Rejection;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableRegisteredEvent;
import dev.floe.events.state.MetadataDocuments;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.location.Location;
import dev.floe.processor.step.CreateTableStep;
import dev.floe.processor.step.PrepareTableStep;
import dev.floe.processor.step.RegisterTableStep;
import dev.floe.processor.step.TransactionVoteStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.exceptions.CommitFailedException;

/**
 * Decides the commands on one table's key. Pure: given the table's state and a command, it returns
 * the events, the new state and the reply; writing the metadata file and the store is the
 * processor's job. The commit mirrors Iceberg's {@code CatalogHandlers.commit}: every requirement
 * is checked against the latest state (so a commit whose requirements still hold succeeds even if
 * others committed in between), the updates are applied with {@link TableMetadata#buildFrom}, and
 * nothing happens when the updates change nothing.
 */
public final class TableDecider {
  private TableDecider() {}

  /**
   * @param base the parsed metadata of {@code state}, or null when the table does not exist
   */
  public static Decision commit(TableState state, TableMetadata base, CommitTableCommand c) {
    return commit(state, base, c, c.header().commandId());
  }

  /**
   * Decides a commit as {@link #commit(TableState, TableMetadata, CommitTableCommand)} does, with
   * its metadata file named by {@code fileId} instead of the command id: the API, deciding ahead on
   * the state it read, names the file it writes so that no file the processor writes can replace
   * it.
   */
  public static Decision commit(
      TableState state, TableMetadata base, CommitTableCommand c, String fileId) {
    return commit(state, base, c, fileId, List.of());
  }

  /**
   * Decides a commit that the directory let move the table's files into {@code held} (a {@link
   * dev.floe.processor.step.CommitRelocatedStep}); a commit that comes straight to the table's key
   * may move them only inside its current location.
   */
  public static Decision commit(
      TableState state, TableMetadata base, CommitTableCommand c, List<String> held) {
    return commit(state, base, c, c.header().commandId(), held);
  }

  private static Decision commit(
      TableState state,
      TableMetadata base,
      CommitTableCommand c,
      String fileId,
      List<String> held) {
    String id = c.header().commandId();
    if (state == null) {
      return Decision.rejected(
          id, Rejection.of(TABLE_NOT_FOUND, "Table does not exist: %s", c.identifier()));
    }
    try {
      for (UpdateRequirement requirement : c.requirements()) {
        requirement.validate(base);
      }
    } catch (CommitFailedException e) {
      return Decision.rejected(id, new Rejection(REQUIREMENT_FAILED, e.getMessage()));
    }
    List<MetadataUpdate> updates = Authorship.stamp(c.updates(), c.header().principal());
    TableMetadata updated;
    try {
      TableMetadata.Builder builder = TableMetadata.buildFrom(base);
      for (MetadataUpdate update : updates) {
        update.applyTo(builder);
      }
      updated = builder.build();
    } catch (CommitFailedException e) {
      return Decision.rejected(id, new Rejection(REQUIREMENT_FAILED, e.getMessage()));
    } catch (RuntimeException e) {
      // ValidationException, IllegalArgumentException: the updates are invalid for this table.
      return Decision.rejected(id, Rejection.invalid(e));
    }
    Optional<Rejection> moved = checkMoved(base, updated, held);
    if (moved.isPresent()) {
      return Decision.rejected(id, moved.get());
    }
    if (updated.changes().isEmpty()) {
      return Decision.reply(List.of(), CommandReply.table(id, state.metadataLocation()));
    }
    int version = state.version() + 1;
    String location = NewTable.metadataLocation(updated, state.version(), fileId);
    String json = TableMetadataParser.toJson(updated);
    TableState next = new TableState(updated.uuid(), location, json, version, state.sequence() + 1);
    TableCommittedEvent event = committed(c, updates, state, next);
    // The next commit's base, without parsing the document again: the built metadata at its
    // location, its changes dropped (a base's pending changes would be carried into the next
    // build, which then rewrites the snapshot log), as a parse of the file would give it
    // (CommittedMetadataTest pins the equivalence).
    TableMetadata located =
        TableMetadata.buildFrom(updated).withMetadataLocation(location).discardChanges().build();
    return Decision.table(List.of(event), CommandReply.table(id, location), next, located);
  }

  /**
   * Takes the metadata file the API wrote ahead for this commit, when the table still points at the
   * base the API decided it on: the same base and the same command give the same decision, so the
   * file is that decision's, and nothing is parsed, built or written here. Empty when the command
   * carries no such file or the table moved on since (then decide it with {@link #commit}, which
   * writes a file of its own).
   *
   * @param documents where the new state reads its document from when asked for
   */
  public static Optional<Decision> writtenAhead(
      TableState state, CommitTableCommand c, MetadataDocuments documents) {
    CommitTableCommand.WrittenAhead ahead = c.writtenAhead();
    if (ahead == null
        || state == null
        || !ahead.baseLocation().equals(state.metadataLocation())
        || !ahead.tableUuid().equals(state.tableUuid())) {
      return Optional.empty();
    }
    TableState next =
        TableState.pointer(
            state.tableUuid(),
            ahead.location(),
            state.version() + 1,
            state.sequence() + 1,
            documents);
    List<MetadataUpdate> updates = Authorship.stamp(c.updates(), c.header().principal());
    CommandReply reply = CommandReply.table(c.header().commandId(), ahead.location());
    return Optional.of(
        new Decision(
            List.of(committed(c, updates, state, next)), List.of(), reply, next, false, false));
  }

  /**
   * A table's uuid never changes, and its files go only where it holds locations: its current
   * location, or those the directory checked against every other entity's for this commit; every
   * write path lies inside the location (vended credentials cover the location and nothing else).
   */
  private static Optional<Rejection> checkMoved(
      TableMetadata base, TableMetadata updated, List<String> held) {
    if (!base.uuid().equals(updated.uuid())) {
      return Optional.of(
          Rejection.of(
              INVALID_REQUEST,
              "Cannot assign uuid %s: the table's uuid is %s",
              updated.uuid(),
              base.uuid()));
    }
    boolean moved = !Objects.equals(base.location(), updated.location());
    for (String key : LocationAuthority.TABLE_PATH_PROPERTIES) {
      moved |= !Objects.equals(base.properties().get(key), updated.properties().get(key));
    }
    if (!moved) {
      return Optional.empty();
    }
    List<String> within = new ArrayList<>(held);
    within.add(base.location());
    Optional<Rejection> outside =
        Placement.staysWithin(
            within,
            updated.location(),
            updated.properties(),
            LocationAuthority.TABLE_PATH_PROPERTIES);
    if (outside.isPresent()) {
      return outside;
    }
    try {
      return LocationAuthority.writePathProblem(
              Location.parse(updated.location()),
              updated.properties(),
              LocationAuthority.TABLE_PATH_PROPERTIES)
          .map(problem -> new Rejection(INVALID_REQUEST, problem));
    } catch (RuntimeException e) {
      return Optional.of(Rejection.invalid(e));
    }
  }

  private static TableCommittedEvent committed(
      CommitTableCommand c, List<MetadataUpdate> updates, TableState base, TableState next) {
    return new TableCommittedEvent(
        c.warehouse(),
        c.identifier(),
        next.tableUuid(),
        c.requirements(),
        updates,
        base.metadataLocation(),
        next.metadataLocation(),
        c.header().commandId(),
        c.header().principal(),
        next.sequence());
  }

  /**
   * A table's part of a multi-table transaction.
   *
   * @param vote the answer to the coordinator
   * @param next the state to install if the transaction commits; null when the table votes no or
   *     its change changes nothing
   */
  public record Prepared(TransactionVoteStep vote, TableState next) {}

  /**
   * Decides a prepared change exactly as a single commit, but holds the result for the decision.
   */
  public static Prepared prepare(TableState state, TableMetadata base, PrepareTableStep step) {
    Decision decision = commit(state, base, step.asCommit());
    if (decision.isRejected()) {
      return new Prepared(
          new TransactionVoteStep(
              step.header(),
              step.warehouse(),
              step.identifier(),
              decision.reply().rejection(),
              null),
          null);
    }
    TableCommittedEvent event =
        decision.events().isEmpty() ? null : (TableCommittedEvent) decision.events().get(0);
    return new Prepared(
        new TransactionVoteStep(step.header(), step.warehouse(), step.identifier(), null, event),
        decision.tableState());
  }

  public static Decision create(TableState existing, CreateTableStep step) {
    String id = step.header().commandId();
    if (existing != null) {
      // Cannot happen while the directory claims names one at a time; refuse rather than clobber.
      return Decision.rejected(
          id, Rejection.of(TABLE_ALREADY_EXISTS, "Table already exists: %s", step.identifier()));
    }
    String json = TableMetadataParser.toJson(step.metadata());
    TableState state = new TableState(step.metadata().uuid(), step.metadataLocation(), json, 1, 1);
    TableCreatedEvent event =
        new TableCreatedEvent(
            step.warehouse(),
            step.identifier(),
            state.tableUuid(),
            step.metadataLocation(),
            step.metadata(),
            id,
            step.header().principal(),
            1);
    return Decision.table(List.of(event), CommandReply.table(id, step.metadataLocation()), state);
  }

  /** Installs a registered table; its file exists already and is not rewritten. */
  public static Decision register(TableState existing, RegisterTableStep step) {
    String id = step.header().commandId();
    if (existing != null && !step.overwrite()) {
      return Decision.rejected(
          id, Rejection.of(TABLE_ALREADY_EXISTS, "Table already exists: %s", step.identifier()));
    }
    String json = TableMetadataParser.toJson(step.metadata());
    long sequence = existing == null ? 1 : existing.sequence() + 1;
    int version = existing == null ? 1 : existing.version() + 1;
    TableState state =
        new TableState(step.metadata().uuid(), step.metadataLocation(), json, version, sequence);
    TableRegisteredEvent event =
        new TableRegisteredEvent(
            step.warehouse(),
            step.identifier(),
            state.tableUuid(),
            step.metadataLocation(),
            step.metadata(),
            existing != null,
            id,
            step.header().principal(),
            sequence);
    return new Decision(
        List.of(event),
        List.of(),
        CommandReply.table(id, step.metadataLocation()),
        state,
        false,
        false);
  }
}
