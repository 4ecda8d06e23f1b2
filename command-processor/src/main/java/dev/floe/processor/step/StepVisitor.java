package dev.floe.processor.step;

/**
 * One function over every step type, by type: a new step type does not compile until each
 * implementation says what it does with it. A step is given to it by {@link Step#accept}.
 *
 * @param <R> what the function gives for a step
 */
public interface StepVisitor<R> {
  R createTable(CreateTableStep step);

  R registerTable(RegisterTableStep step);

  R dropTable(DropTableStep step);

  R createView(CreateViewStep step);

  R registerView(RegisterViewStep step);

  R dropView(DropViewStep step);

  R moveOut(MoveOutStep step);

  R moveIn(MoveInStep step);

  R releaseName(ReleaseNameStep step);

  R retainDeleted(RetainDeletedStep step);

  R restore(RestoreStep step);

  R commitRelocated(CommitRelocatedStep step);

  R moveGrants(MoveGrantsStep step);

  R prepareTable(PrepareTableStep step);

  R transactionVote(TransactionVoteStep step);

  R resolvePrepared(ResolvePreparedStep step);

  R idempotencyOutcome(IdempotencyOutcomeStep step);
}
