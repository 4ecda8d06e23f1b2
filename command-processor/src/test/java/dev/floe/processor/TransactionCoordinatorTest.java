package dev.floe.processor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.Rejection;
import dev.floe.events.RejectionCode;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTransactionCommand;
import dev.floe.events.command.TableChange;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.TableEntry;
import dev.floe.infra.storage.authority.Claims;
import dev.floe.processor.step.PrepareTableStep;
import dev.floe.processor.step.ResolvePreparedStep;
import dev.floe.processor.step.Step;
import dev.floe.processor.step.TransactionVoteStep;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class TransactionCoordinatorTest {
  private static final Namespace DB = Namespace.of("db");
  private static final TableIdentifier A = TableIdentifier.of(DB, "a");
  private static final TableIdentifier B = TableIdentifier.of(DB, "b");
  private static final TableIdentifier C = TableIdentifier.of(DB, "c");
  private final Directory directory = new Tables(Set.of(A, B, C));

  @Test
  void startsByPreparingEveryTableAndAnswersNothingYet() {
    CommitTransactionCommand t1 = transaction("1", A, B);

    TransactionCoordinator.Outcome outcome =
        TransactionCoordinator.begin(directory, TransactionCoordinator.State.IDLE, t1);

    assertThat(outcome.decision().reply()).isNull();
    assertThat(outcome.decision().steps())
        .extracting(Step::identifier, step -> step.getClass())
        .containsExactly(
            Tuple.tuple(A, PrepareTableStep.class), Tuple.tuple(B, PrepareTableStep.class));
    assertThat(outcome.state().active().command()).isEqualTo(t1);
  }

  @Test
  void refusesAMissingTableOrATableNamedTwiceBeforePreparingAnything() {
    TableIdentifier missing = TableIdentifier.of(DB, "missing");

    Decision unknown =
        TransactionCoordinator.begin(
                directory, TransactionCoordinator.State.IDLE, transaction("1", A, missing))
            .decision();
    Decision twice =
        TransactionCoordinator.begin(
                directory, TransactionCoordinator.State.IDLE, transaction("2", A, A))
            .decision();

    assertThat(unknown.reply().rejection().code()).isEqualTo(RejectionCode.TABLE_NOT_FOUND);
    assertThat(twice.reply().rejection().code()).isEqualTo(RejectionCode.INVALID_REQUEST);
    assertThat(unknown.steps()).isEmpty();
    assertThat(twice.steps()).isEmpty();
  }

  @Test
  void commitsOnTheLastYesWithEveryTablesEventAndStartsTheNextQueuedTransaction() {
    CommitTransactionCommand t1 = transaction("1", A, B);
    CommitTransactionCommand t2 = transaction("2", B, C);
    TransactionCoordinator.State state =
        TransactionCoordinator.begin(directory, TransactionCoordinator.State.IDLE, t1).state();
    TransactionCoordinator.Outcome queued = TransactionCoordinator.begin(directory, state, t2);
    assertThat(queued.decision().steps()).as("t2 waits for t1").isEmpty();
    assertThat(queued.decision().reply()).isNull();

    TransactionCoordinator.Outcome afterB =
        TransactionCoordinator.vote(queued.state(), yes(t1, B, 7));
    assertThat(afterB.decision().reply()).isNull();
    assertThat(afterB.decision().events()).isEmpty();
    TransactionCoordinator.Outcome afterA =
        TransactionCoordinator.vote(afterB.state(), yes(t1, A, 3));

    Decision decision = afterA.decision();
    assertThat(decision.reply().accepted()).isTrue();
    assertThat(decision.reply().commandId()).isEqualTo("1");
    assertThat(decision.events())
        .as("in the transaction's table order")
        .extracting(event -> ((TableCommittedEvent) event).identifier())
        .containsExactly(A, B);
    assertThat(decision.steps())
        .extracting(Step::identifier, Step::getClass)
        .containsExactly(
            Tuple.tuple(A, ResolvePreparedStep.class),
            Tuple.tuple(B, ResolvePreparedStep.class),
            Tuple.tuple(B, PrepareTableStep.class),
            Tuple.tuple(C, PrepareTableStep.class));
    assertThat(decision.steps().subList(0, 2))
        .allMatch(step -> ((ResolvePreparedStep) step).commit());
    assertThat(afterA.state().active().command()).isEqualTo(t2);
    assertThat(afterA.state().queued()).isEmpty();
  }

  @Test
  void abortsEveryTableOnTheFirstNoAndIgnoresTheLateVotes() {
    CommitTransactionCommand t1 = transaction("1", A, B);
    TransactionCoordinator.State state =
        TransactionCoordinator.begin(directory, TransactionCoordinator.State.IDLE, t1).state();

    TransactionCoordinator.Outcome no =
        TransactionCoordinator.vote(
            state,
            new TransactionVoteStep(
                t1.header(),
                "wh",
                B,
                new Rejection(RejectionCode.REQUIREMENT_FAILED, "Requirement failed: x"),
                null));

    assertThat(no.decision().reply().rejection().code())
        .isEqualTo(RejectionCode.REQUIREMENT_FAILED);
    assertThat(no.decision().reply().rejection().message())
        .isEqualTo("Table db.b: Requirement failed: x");
    assertThat(no.decision().events()).isEmpty();
    assertThat(no.decision().steps()).extracting(Step::identifier).containsExactly(A, B);
    assertThat(no.decision().steps()).noneMatch(step -> ((ResolvePreparedStep) step).commit());
    assertThat(no.state()).isEqualTo(TransactionCoordinator.State.IDLE);

    TransactionCoordinator.Outcome late = TransactionCoordinator.vote(no.state(), yes(t1, A, 2));
    assertThat(late.decision().reply()).isNull();
    assertThat(late.decision().events()).isEmpty();
    assertThat(late.decision().steps()).isEmpty();
  }

  @Test
  void aNoOpTableVotesYesWithoutAnEvent() {
    CommitTransactionCommand t1 = transaction("1", A, B);
    TransactionCoordinator.State state =
        TransactionCoordinator.begin(directory, TransactionCoordinator.State.IDLE, t1).state();
    state =
        TransactionCoordinator.vote(
                state, new TransactionVoteStep(t1.header(), "wh", A, null, null))
            .state();

    Decision decision = TransactionCoordinator.vote(state, yes(t1, B, 4)).decision();

    assertThat(decision.reply().accepted()).isTrue();
    assertThat(decision.events()).hasSize(1);
  }

  private static TransactionVoteStep yes(
      CommitTransactionCommand t, TableIdentifier table, long sequence) {
    TableCommittedEvent event =
        new TableCommittedEvent(
            "wh",
            table,
            "uuid-" + table.name(),
            List.of(),
            List.of(),
            "before",
            "after",
            t.header().commandId(),
            "alice",
            sequence);
    return new TransactionVoteStep(t.header(), "wh", table, null, event);
  }

  private static CommitTransactionCommand transaction(String id, TableIdentifier... tables) {
    List<TableChange> changes =
        Arrays.stream(tables)
            .map(
                t ->
                    new TableChange(
                        t, List.of(), List.of(new MetadataUpdate.SetProperties(Map.of("k", id)))))
            .toList();
    return new CommitTransactionCommand(
        new CommandHeader(id, 1L, "alice", "api-1", null), "wh", changes);
  }

  /** A directory that holds only the given tables. */
  private record Tables(Set<TableIdentifier> tables) implements Directory {
    @Override
    public Optional<NamespaceState> namespace(Namespace namespace) {
      return Optional.empty();
    }

    @Override
    public boolean hasChildNamespaces(Namespace namespace) {
      return false;
    }

    @Override
    public boolean hasTables(Namespace namespace) {
      return false;
    }

    @Override
    public boolean hasViews(Namespace namespace) {
      return false;
    }

    @Override
    public boolean tableExists(TableIdentifier identifier) {
      return tables.contains(identifier);
    }

    @Override
    public boolean viewExists(TableIdentifier identifier) {
      return false;
    }

    @Override
    public Optional<TableEntry> table(TableIdentifier identifier) {
      return tables.contains(identifier)
          ? Optional.of(new TableEntry("c-0", null))
          : Optional.empty();
    }

    @Override
    public Optional<TableEntry> view(TableIdentifier identifier) {
      return Optional.empty();
    }

    @Override
    public String tableHolder(TableIdentifier identifier) {
      return identifier.toString();
    }

    @Override
    public String viewHolder(TableIdentifier identifier) {
      return "view:" + identifier;
    }

    @Override
    public Claims claims() {
      return Claims.NONE;
    }

    @Override
    public boolean purgePending(String location) {
      return false;
    }
  }
}
