package dev.floe.processor.kafka;

import dev.floe.events.state.TableEntry;
import dev.floe.processor.step.CommitRelocatedStep;
import dev.floe.processor.step.CreateTableStep;
import dev.floe.processor.step.CreateViewStep;
import dev.floe.processor.step.DropTableStep;
import dev.floe.processor.step.DropViewStep;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.IdempotencyOutcomeStep;
import dev.floe.processor.step.MoveGrantsStep;
import dev.floe.processor.step.MoveInStep;
import dev.floe.processor.step.MoveOutStep;
import dev.floe.processor.step.PrepareTableStep;
import dev.floe.processor.step.RegisterTableStep;
import dev.floe.processor.step.RegisterViewStep;
import dev.floe.processor.step.ReleaseNameStep;
import dev.floe.processor.step.ResolvePreparedStep;
import dev.floe.processor.step.RestoreStep;
import dev.floe.processor.step.RetainDeletedStep;
import dev.floe.processor.step.StepVisitor;
import dev.floe.processor.step.TransactionVoteStep;

/** What each step claims, moves or releases; the steps that change no name or location, nothing. */
final class DirectorySteps implements StepVisitor<Void> {
  private final StoreDirectory directory;

  DirectorySteps(StoreDirectory directory) {
    this.directory = directory;
  }

  @Override
  public Void createTable(CreateTableStep s) {
    directory.claim(
        directory.tableHolder(s.identifier()),
        new TableEntry(s.header().commandId(), s.metadata().location(), s.metadata().uuid()));
    return null;
  }

  @Override
  public Void registerTable(RegisterTableStep s) {
    directory.release(directory.tableHolder(s.identifier()), false);
    directory.claim(
        directory.tableHolder(s.identifier()),
        new TableEntry(s.header().commandId(), s.metadata().location(), s.metadata().uuid()));
    return null;
  }

  @Override
  public Void dropTable(DropTableStep s) {
    if (s.recoverable()) {
      directory.keep(
          EntityKind.TABLE, s.identifier(), s.header(), s.expiresAtMs(), s.purgeRequested());
    } else {
      directory.release(directory.tableHolder(s.identifier()), s.purgeRequested());
    }
    return null;
  }

  @Override
  public Void createView(CreateViewStep s) {
    directory.claim(
        directory.viewHolder(s.identifier()),
        StoreDirectory.viewEntry(s.header().commandId(), s.metadata()));
    return null;
  }

  @Override
  public Void registerView(RegisterViewStep s) {
    directory.claim(
        directory.viewHolder(s.identifier()),
        StoreDirectory.viewEntry(s.header().commandId(), s.metadata()));
    return null;
  }

  @Override
  public Void dropView(DropViewStep s) {
    if (s.recoverable()) {
      directory.keep(EntityKind.VIEW, s.identifier(), s.header(), s.expiresAtMs(), false);
    } else {
      directory.release(directory.viewHolder(s.identifier()), false);
    }
    return null;
  }

  @Override
  public Void moveOut(MoveOutStep s) {
    directory.move(
        directory.holder(s.kind(), s.source()),
        directory.holder(s.kind(), s.destination()),
        s.header().commandId());
    return null;
  }

  @Override
  public Void moveIn(MoveInStep s) {
    return null; // the name moved with the move out
  }

  @Override
  public Void releaseName(ReleaseNameStep s) {
    directory.releaseOwnClaim(directory.holder(s.kind(), s.identifier()), s.header().commandId());
    return null;
  }

  @Override
  public Void retainDeleted(RetainDeletedStep s) {
    return null; // the kept entity's last state goes through retain
  }

  @Override
  public Void restore(RestoreStep s) {
    directory.restore(s);
    return null;
  }

  @Override
  public Void commitRelocated(CommitRelocatedStep s) {
    directory.holdMore(s);
    return null;
  }

  @Override
  public Void moveGrants(MoveGrantsStep s) {
    return null;
  }

  @Override
  public Void prepareTable(PrepareTableStep s) {
    return null;
  }

  @Override
  public Void transactionVote(TransactionVoteStep s) {
    return null;
  }

  @Override
  public Void resolvePrepared(ResolvePreparedStep s) {
    return null;
  }

  @Override
  public Void idempotencyOutcome(IdempotencyOutcomeStep s) {
    return null;
  }
}
