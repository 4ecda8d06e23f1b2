package dev.floe.processor.kafka;

import dev.floe.events.CommandReply;
import dev.floe.events.FloeJson;
import dev.floe.events.Keys;
import dev.floe.events.RecordLimits;
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
import org.apache.iceberg.TableMetadata;
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
  private final ParsedMetadataCache parsed = new ParsedMetadataCache(256);
  private ProcessorContext<String, byte[]> context;
  private KeyValueStore<String, byte[]> directory;
  private KeyValueStore<String, byte[]> tables;
  private KeyValueStore<String, byte[]> views;
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
    this.tables = context.getStateStore(StoreNames.TABLES);
    this.views = context.getStateStore(StoreNames.VIEWS);
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
    if (metadata.isEmpty()
        || groupCommit.isLastPolled(
            metadata.get().topic(), metadata.get().partition(), metadata.get().offset())) {
      context.commit();
    }
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
        resolve(record, resolve);
        return;
      }
      if (step instanceof PrepareTableStep prepare) {
        handle(
            record,
            prepare.header(),
            () -> prepare(record.key(), prepare),
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
      if (waitsForTransaction(record, true)) {
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
      if (command instanceof CommitTableCommand && waitsForTransaction(record, false)) {
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

  /**
   * A command or step for a table that is prepared in a multi-table transaction waits, in arrival
   * order, until the coordinator's decision releases the table.
   */
  private boolean waitsForTransaction(Record<String, byte[]> record, boolean isStep) {
    byte[] prepared = tables.get(Keys.prepared(record.key()));
    if (prepared == null) {
      return false;
    }
    tables.put(
        Keys.prepared(record.key()),
        PreparedTable.fromBytes(prepared)
            .plus(new PreparedTable.Waiting(isStep, record.value()))
            .toBytes());
    return true;
  }

  /**
   * Checks a table's part of a transaction as a commit, writes its next metadata file and holds the
   * result. A table already held by a transaction votes no (the coordinator runs one transaction
   * per warehouse at a time, so this does not happen while it works as designed).
   */
  private Decision prepare(String key, PrepareTableStep step) {
    String id = step.header().commandId();
    if (tables.get(Keys.prepared(key)) != null) {
      return Decision.step(
          new TransactionVoteStep(
              step.header(),
              step.warehouse(),
              step.identifier(),
              Rejection.of(
                  RejectionCode.REQUIREMENT_FAILED,
                  "Table %s is part of another transaction in progress",
                  step.identifier()),
              null));
    }
    TableState state = readTable(key);
    TableMetadata base = state == null ? null : parsed.get(key, state);
    TableDecider.Prepared prepared = TableDecider.prepare(state, base, step);
    if (prepared.vote().yes()) {
      if (prepared.next() != null) {
        requireWithinRecordLimit(prepared.next());
        writeMetadataFile(prepared.next());
      }
      tables.put(Keys.prepared(key), new PreparedTable(id, prepared.next(), List.of()).toBytes());
    }
    return Decision.step(prepared.vote());
  }

  /**
   * Installs (or drops) what the table prepared, then decides the commands and steps that waited
   * for it, in their order.
   */
  private void resolve(Record<String, byte[]> record, ResolvePreparedStep step) {
    String key = record.key();
    byte[] raw = tables.get(Keys.prepared(key));
    if (raw == null) {
      return; // the table voted no: nothing was prepared
    }
    PreparedTable prepared = PreparedTable.fromBytes(raw);
    if (!prepared.transactionId().equals(step.header().commandId())) {
      return; // held by another transaction: this one's prepare was refused
    }
    if (prepared.next() != null) {
      if (step.commit()) {
        tables.put(key, prepared.next().toBytes());
      } else {
        deleteQuietly(prepared.next().metadataLocation());
      }
    }
    tables.delete(Keys.prepared(key));
    for (PreparedTable.Waiting waiting : prepared.waiting()) {
      process(record.withValue(waiting.value()), waiting.step());
    }
  }

  /** An aborted transaction's metadata file was never part of any table. */
  private void deleteQuietly(String location) {
    try {
      files.io(location).deleteFile(location);
    } catch (RuntimeException e) {
      LOG.warn("Could not delete the unused metadata file {}: {}", location, e.getMessage());
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
    } catch (TooLargeException e) {
      decision = onFailure.apply(new Rejection(RejectionCode.TOO_LARGE, e.getMessage()));
    } catch (MetadataWriteException e) {
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
      Decision decision = ViewDecider.commit(read(views, key), commit);
      write(views, key, decision);
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
      TableState state = readTable(key);
      TableMetadata base = state == null ? null : parsed.get(key, state);
      Decision decision = TableDecider.commit(state, base, commit);
      writeTable(key, decision);
      return decision;
    }
    StoreDirectory dir = new StoreDirectory(directory, command.warehouse());
    Decision decision = DirectoryDecider.decide(dir, command);
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
    Decision viewDecision = decideViewStep(key, step);
    if (viewDecision != null) {
      return viewDecision;
    }
    TableState state = readTable(key);
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
    writeTable(key, decision);
    return decision;
  }

  /** The view steps, on the views store; null when the step is not about a view. */
  private Decision decideViewStep(String key, TableStep step) {
    TableState state = read(views, key);
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
    write(views, key, decision);
    return decision;
  }

  /**
   * A stored state; its document is read from its file (through the cache) when first used: a
   * commit whose parsed metadata is cached reads no file, a drop or a rename needs none.
   */
  private TableState read(KeyValueStore<String, byte[]> store, String key) {
    byte[] value = store.get(key);
    return value == null ? null : TableState.fromBytes(value, files);
  }

  /**
   * Writes the new metadata file first, then the store: if the process dies in between, the
   * transaction aborts and the reprocessed command rewrites the same file name.
   */
  private void write(KeyValueStore<String, byte[]> store, String key, Decision decision) {
    if (decision.tableState() != null) {
      TableState state = decision.tableState();
      requireWithinRecordLimit(state);
      if (decision.writeMetadata()) {
        writeMetadataFile(state);
      }
      store.put(key, state.toBytes());
    } else if (decision.tableRemoved()) {
      store.delete(key);
    }
  }

  /**
   * A table's metadata stays within Floe's record limit: the records that still carry a document (a
   * create's event, a multi-table transaction's prepared state, a register) must be accepted by
   * Kafka. A larger change is refused before anything is written, rather than wedging the partition
   * on a record Kafka refuses.
   */
  private static void requireWithinRecordLimit(TableState state) {
    if (!state.holdsDocument()) {
      return; // a renamed table's pointer: its document is in its file already, and in no record
    }
    long size = state.metadataJson().length() + state.metadataLocation().length();
    if (size > RecordLimits.MAX_TABLE_STATE_BYTES) {
      throw new TooLargeException(
          String.format(
              "The table's metadata would be %d bytes, more than Floe keeps for one table (%d)",
              size, RecordLimits.MAX_TABLE_STATE_BYTES));
    }
  }

  private void writeMetadataFile(TableState state) {
    try {
      files.writeJson(state.metadataLocation(), state.metadataJson());
    } catch (RuntimeException e) {
      throw new MetadataWriteException(e);
    }
  }

  private TableState readTable(String key) {
    return read(tables, key);
  }

  private void writeTable(String key, Decision decision) {
    write(tables, key, decision);
    if (decision.tableRemoved()) {
      parsed.invalidate(key);
    }
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

  /** The change would make a table's state larger than Floe's records take. */
  static final class TooLargeException extends RuntimeException {
    TooLargeException(String message) {
      super(message);
    }
  }

  /** The warehouse storage refused a metadata write: nothing is applied, the client may retry. */
  static final class MetadataWriteException extends RuntimeException {
    MetadataWriteException(RuntimeException cause) {
      super(cause.getMessage(), cause);
    }
  }
}
