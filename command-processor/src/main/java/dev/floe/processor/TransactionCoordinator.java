package dev.floe.processor;

import static dev.floe.events.RejectionCode.INVALID_REQUEST;
import static dev.floe.events.RejectionCode.TABLE_NOT_FOUND;

import dev.floe.events.CommandReply;
import dev.floe.events.Rejection;
import dev.floe.events.command.CommitTransactionCommand;
import dev.floe.events.command.TableChange;
import dev.floe.events.event.CatalogEvent;
import dev.floe.processor.step.PrepareTableStep;
import dev.floe.processor.step.ResolvePreparedStep;
import dev.floe.processor.step.Step;
import dev.floe.processor.step.TransactionVoteStep;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Decides multi-table transactions on the warehouse key (two-phase commit over the tables' keys).
 * Pure: given the coordinator's state and a command or vote, it returns the next state and what to
 * send.
 *
 * <ol>
 *   <li>A transaction whose tables all exist is started: a {@link PrepareTableStep} goes to each
 *       table. One transaction per warehouse is active at a time; the others queue behind it in
 *       arrival order, so transactions never deadlock on each other's tables.
 *   <li>Each table checks its requirements, writes its next metadata file, holds the result as
 *       prepared (the table's other changes wait) and votes.
 *   <li>On the first no, every table is told to drop what it prepared and the client gets that
 *       table's refusal (409 for a failed requirement). On the last yes, one Kafka transaction
 *       carries every table's {@code floe.table.committed} event, a commit step per table and the
 *       reply: a {@code read_committed} consumer sees all of the transaction or none of it.
 * </ol>
 */
public final class TransactionCoordinator {
  private TransactionCoordinator() {}

  /**
   * @param active the transaction being prepared, or null
   * @param queued the transactions waiting behind it, in arrival order
   */
  public record State(Active active, List<CommitTransactionCommand> queued) {
    public static final State IDLE = new State(null, List.of());

    public State {
      queued = queued == null ? List.of() : List.copyOf(queued);
    }
  }

  /**
   * @param votes the yes votes received so far
   */
  public record Active(CommitTransactionCommand command, List<TransactionVoteStep> votes) {
    public Active {
      votes = votes == null ? List.of() : List.copyOf(votes);
    }
  }

  public record Outcome(State state, Decision decision) {}

  public static Outcome begin(Directory directory, State state, CommitTransactionCommand c) {
    String id = c.header().commandId();
    if (c.changes().isEmpty()) {
      return new Outcome(
          state,
          Decision.rejected(id, new Rejection(INVALID_REQUEST, "A transaction needs a table")));
    }
    Set<TableIdentifier> seen = new HashSet<>();
    for (TableChange change : c.changes()) {
      if (!seen.add(change.identifier())) {
        return new Outcome(
            state,
            Decision.rejected(
                id,
                Rejection.of(
                    INVALID_REQUEST,
                    "Table %s appears more than once in the transaction",
                    change.identifier())));
      }
      if (!directory.tableExists(change.identifier())) {
        return new Outcome(
            state,
            Decision.rejected(
                id,
                Rejection.of(TABLE_NOT_FOUND, "Table does not exist: %s", change.identifier())));
      }
    }
    if (state.active() != null) {
      List<CommitTransactionCommand> queued = new ArrayList<>(state.queued());
      queued.add(c);
      return new Outcome(new State(state.active(), queued), Decision.pending());
    }
    return new Outcome(
        new State(new Active(c, List.of()), state.queued()),
        new Decision(List.of(), prepares(c), null, null, false, false));
  }

  public static Outcome vote(State state, TransactionVoteStep vote) {
    Active active = state.active();
    if (active == null
        || !active.command().header().commandId().equals(vote.header().commandId())
        || active.votes().stream().anyMatch(v -> v.identifier().equals(vote.identifier()))) {
      // A late vote of a transaction already aborted: its table has been told already.
      return new Outcome(state, Decision.pending());
    }
    CommitTransactionCommand c = active.command();
    String id = c.header().commandId();
    if (!vote.yes()) {
      Rejection why =
          new Rejection(
              vote.rejection().code(),
              "Table " + vote.identifier() + ": " + vote.rejection().message());
      return next(state.queued(), List.of(), resolves(c, false), CommandReply.rejected(id, why));
    }
    List<TransactionVoteStep> votes = new ArrayList<>(active.votes());
    votes.add(vote);
    if (votes.size() < c.changes().size()) {
      return new Outcome(new State(new Active(c, votes), state.queued()), Decision.pending());
    }
    List<CatalogEvent> events = new ArrayList<>();
    for (TableChange change : c.changes()) {
      votes.stream()
          .filter(v -> v.identifier().equals(change.identifier()) && v.event() != null)
          .forEach(v -> events.add(v.event()));
    }
    return next(state.queued(), events, resolves(c, true), CommandReply.done(id));
  }

  /** Finishes the active transaction and starts the first queued one, in one decision. */
  private static Outcome next(
      List<CommitTransactionCommand> queued,
      List<CatalogEvent> events,
      List<Step> steps,
      CommandReply reply) {
    if (queued.isEmpty()) {
      return new Outcome(State.IDLE, new Decision(events, steps, reply, null, false, false));
    }
    CommitTransactionCommand head = queued.get(0);
    List<Step> all = new ArrayList<>(steps);
    all.addAll(prepares(head));
    return new Outcome(
        new State(new Active(head, List.of()), queued.subList(1, queued.size())),
        new Decision(events, all, reply, null, false, false));
  }

  private static List<Step> prepares(CommitTransactionCommand c) {
    List<Step> steps = new ArrayList<>();
    for (TableChange change : c.changes()) {
      steps.add(
          new PrepareTableStep(
              c.header(),
              c.warehouse(),
              change.identifier(),
              change.requirements(),
              change.updates()));
    }
    return steps;
  }

  private static List<Step> resolves(CommitTransactionCommand c, boolean commit) {
    List<Step> steps = new ArrayList<>();
    for (TableChange change : c.changes()) {
      steps.add(new ResolvePreparedStep(c.header(), c.warehouse(), change.identifier(), commit));
    }
    return steps;
  }
}
