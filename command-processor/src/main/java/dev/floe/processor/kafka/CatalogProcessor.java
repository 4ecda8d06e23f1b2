package dev.floe.processor.kafka;

import dev.floe.events.CommandReply;
import dev.floe.events.FloeJson;
import dev.floe.events.Rejection;
import dev.floe.events.RejectionCode;
import dev.floe.events.access.AccessChange;
import dev.floe.events.command.CatalogCommand;
import dev.floe.events.command.ChangeAccessCommand;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.command.CommitTransactionCommand;
import dev.floe.events.command.CommitViewCommand;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.state.DirectoryKeys;
import dev.floe.events.state.MetadataDocuments;
import dev.floe.events.state.StoreNames;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.MetadataFiles;
import dev.floe.processor.Decision;
import dev.floe.processor.DirectoryDecider;
import dev.floe.processor.TableDecider;
import dev.floe.processor.TransactionCoordinator;
import dev.floe.processor.ViewDecider;
import dev.floe.processor.step.CommitRelocatedStep;
import dev.floe.processor.step.CreateTableStep;
import dev.floe.processor.step.CreateViewStep;
import dev.floe.processor.step.DropTableStep;
import dev.floe.processor.step.DropViewStep;
import dev.floe.processor.step.IdempotencyOutcomeStep;
import dev.floe.processor.step.MoveTableGrantsStep;
import dev.floe.processor.step.MoveTableInStep;
import dev.floe.processor.step.MoveTableOutStep;
import dev.floe.processor.step.MoveViewInStep;
import dev.floe.processor.step.MoveViewOutStep;
import dev.floe.processor.step.PrepareTableStep;
import dev.floe.processor.step.RegisterTableStep;
import dev.floe.processor.step.RegisterViewStep;
import dev.floe.processor.step.ReleaseTableNameStep;
import dev.floe.processor.step.ReleaseViewNameStep;
import dev.floe.processor.step.ResolvePreparedStep;
import dev.floe.processor.step.TableStep;
import dev.floe.processor.step.TransactionVoteStep;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of one partition: routes each command or step to its decider, then writes what
 * the decider returned — the metadata file, the stores, the events, the steps and the reply — all
 * inside the stream task's Kafka transaction ({@code exactly_once_v2}).
 */
final class CatalogProcessor implements Processor<String, byte[], String, byte[]> {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogProcessor.class);

  private final String stepsTopic;
  private final MetadataFiles files;
  private ProcessorContext<String, byte[]> context;
  private KeyValueStore<String, byte[]> directory;
  private TableStores stores;
  private TransactionParticipant participant;
  private StoreAccess access;
  private IdempotencyLedger ledger;
  private final java.time.Duration idempotencyLifetime;
  private final FaultPoints faults;
  private final GroupCommit groupCommit;

  CatalogProcessor(
      String stepsTopic,
      MetadataFiles files,
      java.time.Duration idempotencyLifetime,
      FaultPoints faults,
      GroupCommit groupCommit) {
    this.groupCommit = groupCommit;
    this.stepsTopic = stepsTopic;
    this.files = files;
    this.idempotencyLifetime = idempotencyLifetime;
    this.faults = faults;
  }

  @Override
  public void init(ProcessorContext<String, byte[]> context) {
    this.context = context;
    this.directory = context.getStateStore(StoreNames.DIRECTORY);
    this.stores = new TableStores(context, files);
    this.participant = new TransactionParticipant(stores);
    this.access = new StoreAccess(context.getStateStore(StoreNames.ACCESS));
    this.ledger =
        new IdempotencyLedger(context.getStateStore(StoreNames.IDEMPOTENCY), idempotencyLifetime);
    context.schedule(
        java.time.Duration.ofMinutes(1),
        org.apache.kafka.streams.processor.PunctuationType.WALL_CLOCK_TIME,
        ledger::purgeExpired);
  }

  @Override
  public void process(Record<String, byte[]> record) {
    var metadata = context.recordMetadata();
    process(record, metadata.map(m -> stepsTopic.equals(m.topic())).orElse(false));
    // Commit once nothing more of this partition is waiting (GroupCommit).
    groupCommit.commitIfLastPolled(context);
  }

  private void process(Record<String, byte[]> record, boolean isStep) {
    if (isStep) {
      TableStep step;
      try {
        step = FloeJson.fromBytes(record.value(), TableStep.class);
      } catch (RuntimeException e) {
        LOG.error("Skipping an unreadable step at key {}", record.key(), e);
        return;
      }
      faults.before(step);
      if (step instanceof IdempotencyOutcomeStep outcome) {
        for (KeyValue<String, CommandReply> waiter : ledger.complete(outcome)) {
          context.forward(
              record.withKey(waiter.key).withValue(FloeJson.toBytes(waiter.value)),
              CatalogTopology.REPLIES_SINK);
        }
        return;
      }
      if (step instanceof TransactionVoteStep vote) {
        handle(
            record,
            vote.header(),
            () -> coordinate(vote.warehouse(), s -> TransactionCoordinator.vote(s, vote)),
            failure -> Decision.rejected(vote.header().commandId(), failure),
            decision -> IdempotencyLedger.reportOutcome(vote, decision));
        return;
      }
      if (step instanceof ResolvePreparedStep resolve) {
        for (PreparedTable.Waiting waiting : participant.resolve(record.key(), resolve)) {
          process(record.withValue(waiting.value()), waiting.step());
        }
        return;
      }
      if (step instanceof PrepareTableStep prepare) {
        handle(
            record,
            prepare.header(),
            () -> participant.prepare(record.key(), prepare),
            failure ->
                Decision.step(
                    new TransactionVoteStep(
                        prepare.header(),
                        prepare.warehouse(),
                        prepare.identifier(),
                        failure,
                        null)),
            decision -> decision);
        return;
      }
      if (participant.queueIfHeld(record.key(), true, record.value())) {
        return;
      }
      handle(
          record,
          step.header(),
          () -> decideStep(record.key(), step),
          failure -> onStepFailure(step, failure),
          decision -> IdempotencyLedger.reportOutcome(step, decision));
    } else {
      CatalogCommand command;
      try {
        command = FloeJson.fromBytes(record.value(), CatalogCommand.class);
      } catch (RuntimeException e) {
        LOG.error("Skipping an unreadable command at key {}", record.key(), e);
        return;
      }
      faults.before(command);
      Optional<Decision> retry = ledger.before(command.header());
      if (retry.isPresent()) {
        emit(record, command.header(), retry.get());
        return;
      }
      // Of the commands, only a table commit is keyed by a table that a transaction may hold.
      if (command instanceof CommitTableCommand
          && participant.queueIfHeld(record.key(), false, record.value())) {
        return;
      }
      handle(
          record,
          command.header(),
          () -> decideCommand(record.key(), command),
          failure -> Decision.rejected(command.header().commandId(), failure),
          decision -> ledger.after(command.header(), decision));
    }
  }

  /** Runs the transaction coordinator of a warehouse against its state in the directory store. */
  private Decision coordinate(
      String warehouse,
      Function<TransactionCoordinator.State, TransactionCoordinator.Outcome> decide) {
    String key = DirectoryKeys.transactions(warehouse);
    byte[] raw = directory.get(key);
    TransactionCoordinator.State state =
        raw == null
            ? TransactionCoordinator.State.IDLE
            : FloeJson.fromBytes(raw, TransactionCoordinator.State.class);
    TransactionCoordinator.Outcome outcome = decide.apply(state);
    if (outcome.state().active() == null && outcome.state().queued().isEmpty()) {
      directory.delete(key);
    } else {
      directory.put(key, FloeJson.toBytes(outcome.state()));
    }
    return outcome.decision();
  }

  /**
   * Decides and emits. A failure to decide (storage refused the metadata file, or a bug) changes no
   * store; {@code onFailure} says what to send instead of the decision.
   */
  private void handle(
      Record<String, byte[]> record,
      CommandHeader header,
      Supplier<Decision> decide,
      Function<Rejection, Decision> onFailure,
      java.util.function.UnaryOperator<Decision> finish) {
    Decision decision;
    try {
      decision = decide.get();
    } catch (TableStores.TooLargeException e) {
      decision = onFailure.apply(new Rejection(RejectionCode.TOO_LARGE, e.getMessage()));
    } catch (TableStores.MetadataWriteException e) {
      LOG.warn("Metadata write failed for command {}: {}", header.commandId(), e.getMessage());
      decision =
          onFailure.apply(
              new Rejection(
                  RejectionCode.STORAGE_FAILED, "Cannot write table metadata: " + e.getMessage()));
    } catch (MetadataDocuments.UnavailableException e) {
      LOG.warn("Metadata read failed for command {}: {}", header.commandId(), e.getMessage());
      decision = onFailure.apply(new Rejection(RejectionCode.STORAGE_FAILED, e.getMessage()));
    } catch (RuntimeException e) {
      LOG.error("Command {} could not be decided", header.commandId(), e);
      decision =
          onFailure.apply(new Rejection(RejectionCode.INTERNAL_ERROR, "Internal error: " + e));
    }
    emit(record, header, finish.apply(decision));
  }

  /** A failed create step hands the claimed name back before the client hears of the failure. */
  private static Decision onStepFailure(TableStep step, Rejection failure) {
    if (step instanceof CreateTableStep create) {
      return Decision.step(
          new ReleaseTableNameStep(
              create.header(), create.warehouse(), create.identifier(), failure));
    }
    if (step instanceof CreateViewStep create) {
      return Decision.step(
          new ReleaseViewNameStep(
              create.header(), create.warehouse(), create.identifier(), failure));
    }
    return Decision.rejected(step.header().commandId(), failure);
  }

  private Decision decideCommand(String key, CatalogCommand command) {
    if (command instanceof ChangeAccessCommand change) {
      return access.decide(change.header(), change.change());
    }
    if (command instanceof CommitViewCommand commit) {
      Decision decision = ViewDecider.commit(stores.view(key), commit);
      stores.writeView(key, decision);
      return decision;
    }
    if (command instanceof CommitTransactionCommand transaction) {
      return coordinate(
          transaction.warehouse(),
          state ->
              TransactionCoordinator.begin(
                  new StoreDirectory(directory, transaction.warehouse()), state, transaction));
    }
    if (command instanceof CommitTableCommand commit) {
      TableState state = stores.table(key);
      // A file written ahead on the base the table still points at is taken as it is: the stream
      // thread neither builds nor writes it, so a slow write holds up no other command.
      Decision decision =
          TableDecider.writtenAhead(state, commit, files)
              .orElseGet(
                  () ->
                      TableDecider.commit(
                          state, state == null ? null : stores.parsed(key, state), commit));
      stores.writeTable(key, decision);
      return decision;
    }
    StoreDirectory dir = new StoreDirectory(directory, command.warehouse());
    Decision decision = DirectoryDecider.decide(dir, files.locations(), command);
    decision.events().forEach(dir::apply);
    decision.steps().forEach(dir::apply);
    return decision;
  }

  private Decision decideStep(String key, TableStep step) {
    if (step instanceof MoveTableGrantsStep move) {
      return access.decide(
          move.header(),
          new AccessChange.MoveTableGrants(
              move.warehouse(),
              List.of(move.source().namespace().levels()),
              move.source().name(),
              List.of(move.destination().namespace().levels()),
              move.destination().name()));
    }
    if (step instanceof ReleaseTableNameStep release) {
      new StoreDirectory(directory, release.warehouse()).apply(release);
      return Decision.rejected(release.header().commandId(), release.rejection());
    }
    if (step instanceof ReleaseViewNameStep release) {
      new StoreDirectory(directory, release.warehouse()).apply(release);
      return Decision.rejected(release.header().commandId(), release.rejection());
    }
    if (step instanceof CommitRelocatedStep relocated) {
      return decideRelocated(key, relocated);
    }
    Decision viewDecision = decideViewStep(key, step);
    if (viewDecision != null) {
      return viewDecision;
    }
    TableState state = stores.table(key);
    Decision decision;
    if (step instanceof CreateTableStep s) {
      decision = TableDecider.create(state, s);
    } else if (step instanceof RegisterTableStep s) {
      decision = TableDecider.register(state, s);
    } else if (step instanceof MoveTableOutStep s) {
      decision = TableDecider.moveOut(state, s);
    } else if (step instanceof MoveTableInStep s) {
      decision = TableDecider.moveIn(state, s);
    } else {
      decision = TableDecider.drop(state, (DropTableStep) step);
    }
    stores.writeTable(key, decision);
    return decision;
  }

  /** A commit whose new locations the directory has just checked and claimed for the entity. */
  private Decision decideRelocated(String key, CommitRelocatedStep step) {
    if (step.change() instanceof CommitViewCommand commit) {
      Decision decision = ViewDecider.commit(stores.view(key), commit, step.held());
      stores.writeView(key, decision);
      return decision;
    }
    CommitTableCommand commit = (CommitTableCommand) step.change();
    TableState state = stores.table(key);
    Decision decision =
        TableDecider.commit(
            state, state == null ? null : stores.parsed(key, state), commit, step.held());
    stores.writeTable(key, decision);
    return decision;
  }

  /** The view steps, on the views store; null when the step is not about a view. */
  private Decision decideViewStep(String key, TableStep step) {
    TableState state = stores.view(key);
    Decision decision;
    if (step instanceof CreateViewStep s) {
      decision = ViewDecider.create(state, s);
    } else if (step instanceof RegisterViewStep s) {
      decision = ViewDecider.register(state, s);
    } else if (step instanceof DropViewStep s) {
      decision = ViewDecider.drop(state, s);
    } else if (step instanceof MoveViewOutStep s) {
      decision = ViewDecider.moveOut(state, s);
    } else if (step instanceof MoveViewInStep s) {
      decision = ViewDecider.moveIn(state, s);
    } else {
      return null;
    }
    stores.writeView(key, decision);
    return decision;
  }

  private void emit(Record<String, byte[]> record, CommandHeader header, Decision decision) {
    List<CatalogEvent> events = decision.events();
    for (int i = 0; i < events.size(); i++) {
      CatalogEvent event = events.get(i);
      byte[] envelope = EventEnvelope.wrap(event, i, header.timestampMillis()).toBytes();
      context.forward(record.withKey(event.key()).withValue(envelope), CatalogTopology.EVENTS_SINK);
    }
    for (TableStep step : decision.steps()) {
      context.forward(
          record.withKey(step.key()).withValue(FloeJson.toBytes(step)), CatalogTopology.STEPS_SINK);
    }
    if (decision.reply() != null) {
      reply(record, header, decision.reply());
    }
  }

  private void reply(Record<String, byte[]> record, CommandHeader header, CommandReply reply) {
    context.forward(
        record.withKey(header.replyTo()).withValue(FloeJson.toBytes(reply)),
        CatalogTopology.REPLIES_SINK);
  }
}
