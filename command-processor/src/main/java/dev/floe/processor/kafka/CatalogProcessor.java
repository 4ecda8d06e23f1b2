package dev.floe.processor.kafka;

import dev.floe.events.CommandReply;
import dev.floe.events.FloeJson;
import dev.floe.events.Rejection;
import dev.floe.events.command.CatalogCommand;
import dev.floe.events.command.ChangeAccessCommand;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.command.CommitTransactionCommand;
import dev.floe.events.command.CommitViewCommand;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.state.StoreNames;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.MetadataFiles;
import dev.floe.processor.Decision;
import dev.floe.processor.DirectoryDecider;
import dev.floe.processor.TableDecider;
import dev.floe.processor.TabularLifecycle;
import dev.floe.processor.ViewDecider;
import dev.floe.processor.step.CommitRelocatedStep;
import dev.floe.processor.step.CreateTableStep;
import dev.floe.processor.step.CreateViewStep;
import dev.floe.processor.step.DropTableStep;
import dev.floe.processor.step.DropViewStep;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.IdempotencyOutcomeStep;
import dev.floe.processor.step.KindedStep;
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
import dev.floe.processor.step.Step;
import dev.floe.processor.step.TransactionVoteStep;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.iceberg.TableMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
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
  private static final StringSerializer KEYS = new StringSerializer();

  /** The least time between two purges of the idempotency ledger. */
  private static final Duration LEDGER_PURGE_SPACING = Duration.ofMinutes(1);

  private final String stepsTopic;
  private final MetadataFiles files;
  private ProcessorContext<String, byte[]> context;
  private KeyValueStore<String, byte[]> directory;
  private TableStores stores;
  private TransactionParticipant participant;
  private StoreAccess access;
  private CoordinatorStore coordinator;
  private IdempotencyLedger ledger;
  private ExpirySchedule expiry;
  private ExpirySchedule ledgerPurge;
  private final Duration idempotencyLifetime;
  private final FaultPoints faults;
  private final GroupCommit groupCommit;
  private final Function<String, Duration> recoveryPeriods;
  final Routes routes = routes();

  /**
   * @param recoveryPeriods each warehouse's recovery period: how long a dropped table or view is
   *     kept, restorable
   */
  CatalogProcessor(
      String stepsTopic,
      MetadataFiles files,
      Duration idempotencyLifetime,
      FaultPoints faults,
      GroupCommit groupCommit,
      Function<String, Duration> recoveryPeriods) {
    this.groupCommit = groupCommit;
    this.recoveryPeriods = recoveryPeriods;
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
    this.coordinator = new CoordinatorStore(directory);
    this.access = new StoreAccess(context.getStateStore(StoreNames.ACCESS));
    this.ledgerPurge =
        new ExpirySchedule(context, LEDGER_PURGE_SPACING, now -> ledger.purgeExpired(now));
    this.ledger =
        new IdempotencyLedger(
            context.getStateStore(StoreNames.IDEMPOTENCY),
            idempotencyLifetime,
            ledgerPurge::atOrBefore);
    this.expiry =
        new ExpirySchedule(
            context, Duration.ZERO, new Expunger(context, directory, files.locations())::expire);
    // Once at the start, for what the stores already hold; each run names the next.
    ledgerPurge.atOrBefore(Long.MIN_VALUE);
    expiry.atOrBefore(Long.MIN_VALUE);
  }

  @Override
  public void process(Record<String, byte[]> record) {
    var metadata = context.recordMetadata();
    process(record, metadata.map(m -> stepsTopic.equals(m.topic())).orElse(false));
    // Commit once nothing more of this partition is waiting (GroupCommit).
    groupCommit.commitIfLastPolled(context);
  }

  private void process(Record<String, byte[]> record, boolean isStep) {
    Class<?> type = isStep ? Step.class : CatalogCommand.class;
    Object value;
    try {
      value = FloeJson.fromBytes(record.value(), type);
    } catch (RuntimeException e) {
      LOG.error(
          "Skipping an unreadable {} at key {}", isStep ? "step" : "command", record.key(), e);
      return;
    }
    faults.before(value);
    routes.route(value).accept(record, value);
  }

  /**
   * Every command and step, by type, and how it is handled: one entry a type. A command of a type
   * with no entry changes the warehouse's directory ({@link DirectoryDecider}).
   */
  private Routes routes() {
    return new Routes(command(this::onDirectory))
        .add(IdempotencyOutcomeStep.class, this::completeOutcome)
        .add(TransactionVoteStep.class, this::vote)
        .add(ResolvePreparedStep.class, this::resolve)
        .add(PrepareTableStep.class, this::prepare)
        .add(
            MoveGrantsStep.class,
            step(
                (key, move) ->
                    access.decide(move.header(), move.change()).answeredBy(move.reply())))
        .add(ReleaseNameStep.class, step(this::releaseName))
        .add(RetainDeletedStep.class, step(this::retainDeleted))
        .add(RestoreStep.class, step(byKind(TabularLifecycle::restore)))
        .add(CommitRelocatedStep.class, step(this::commitRelocated))
        .add(
            CreateTableStep.class,
            step(onTable(TableDecider::create), releaseName(EntityKind.TABLE)))
        .add(RegisterTableStep.class, step(onTable(TableDecider::register)))
        .add(DropTableStep.class, step(onTable(TabularLifecycle::drop)))
        .add(CreateViewStep.class, step(onView(ViewDecider::create), releaseName(EntityKind.VIEW)))
        .add(RegisterViewStep.class, step(onView(ViewDecider::register)))
        .add(DropViewStep.class, step(onView(TabularLifecycle::drop)))
        .add(MoveOutStep.class, step(byKind(TabularLifecycle::moveOut)))
        .add(MoveInStep.class, step(byKind(TabularLifecycle::moveIn)))
        .add(ChangeAccessCommand.class, command((key, c) -> access.decide(c.header(), c.change())))
        .add(CommitViewCommand.class, command(onView(ViewDecider::commit)))
        .add(CommitTransactionCommand.class, command((key, c) -> coordinator.begin(c)))
        .add(CommitTableCommand.class, command(this::decideCommit, true))
        .requireEvery(Step.class, type -> false)
        .requireEvery(CatalogCommand.class, DirectoryDecider::handles);
  }

  private void completeOutcome(Record<String, byte[]> record, IdempotencyOutcomeStep outcome) {
    for (KeyValue<String, CommandReply> waiter : ledger.complete(outcome)) {
      context.forward(
          record.withKey(waiter.key).withValue(FloeJson.toBytes(waiter.value)),
          CatalogTopology.REPLIES_SINK);
    }
  }

  private void vote(Record<String, byte[]> record, TransactionVoteStep vote) {
    handle(
        record,
        vote.header(),
        () -> coordinator.vote(vote),
        failure -> Decision.rejected(vote.header().commandId(), failure),
        decision -> IdempotencyLedger.reportOutcome(vote, decision));
  }

  private void resolve(Record<String, byte[]> record, ResolvePreparedStep resolve) {
    for (PreparedTable.Waiting waiting : participant.resolve(record.key(), resolve)) {
      process(record.withValue(waiting.value()), waiting.step());
    }
  }

  private void prepare(Record<String, byte[]> record, PrepareTableStep prepare) {
    handle(
        record,
        prepare.header(),
        () -> participant.prepare(record.key(), prepare),
        failure ->
            Decision.step(
                new TransactionVoteStep(
                    prepare.header(), prepare.warehouse(), prepare.identifier(), failure, null)),
        decision -> decision);
  }

  /** A step decided on its key once no transaction holds the key. */
  private <T extends Step> Routes.Handler<T> step(Routes.Decide<T> decide) {
    return step(decide, (step, failure) -> Decision.rejected(step.header().commandId(), failure));
  }

  /** As {@link #step(Routes.Decide)}, with what to send instead when the step cannot be decided. */
  private <T extends Step> Routes.Handler<T> step(
      Routes.Decide<T> decide, BiFunction<T, Rejection, Decision> onFailure) {
    return (record, step) -> {
      if (participant.queueIfHeld(record.key(), true, record.value())) {
        return;
      }
      handle(
          record,
          step.header(),
          () -> decide.decide(record.key(), step),
          failure -> onFailure.apply(step, failure),
          decision -> IdempotencyLedger.reportOutcome(step, decision));
    };
  }

  /** A command decided on its key, once: a retry is answered from the idempotency ledger. */
  private <T extends CatalogCommand> Routes.Handler<T> command(Routes.Decide<T> decide) {
    return command(decide, false);
  }

  /**
   * As {@link #command(Routes.Decide)}; {@code mayBeHeld} for a command keyed by a table, which
   * waits while a transaction holds the table.
   */
  private <T extends CatalogCommand> Routes.Handler<T> command(
      Routes.Decide<T> decide, boolean mayBeHeld) {
    return (record, command) -> {
      Optional<Decision> retry = ledger.before(command.header());
      if (retry.isPresent()) {
        emit(record, command.header(), retry.get());
        return;
      }
      if (mayBeHeld && participant.queueIfHeld(record.key(), false, record.value())) {
        return;
      }
      handle(
          record,
          command.header(),
          () -> decide.decide(record.key(), command),
          failure -> Decision.rejected(command.header().commandId(), failure),
          decision -> ledger.after(command.header(), decision));
    };
  }

  /** A failed create step hands the claimed name back before the client hears of the failure. */
  private static <T extends Step> BiFunction<T, Rejection, Decision> releaseName(EntityKind kind) {
    return (create, failure) ->
        Decision.step(
            new ReleaseNameStep(
                kind, create.header(), create.warehouse(), create.identifier(), failure));
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
      UnaryOperator<Decision> finish) {
    Decision decision;
    try {
      decision = decide.get();
    } catch (RuntimeException e) {
      decision = onFailure.apply(DecideFailure.rejection(header, e));
    }
    emit(record, header, finish.apply(decision));
  }

  private Decision decideCommit(String key, CommitTableCommand commit) {
    TableState state = stores.table(key);
    // A file written ahead on the base the table still points at is taken as it is: the stream
    // thread neither builds nor writes it, so a slow write holds up no other command.
    Decision decision =
        TableDecider.writtenAhead(state, commit, files)
            .orElseGet(() -> TableDecider.commit(state, parsed(key, state), commit));
    stores.writeTable(key, decision);
    return decision;
  }

  private Decision onDirectory(String key, CatalogCommand command) {
    StoreDirectory dir =
        new StoreDirectory(
            directory, command.warehouse(), recoveryPeriods.apply(command.warehouse()));
    Decision decision = DirectoryDecider.decide(dir, files.locations(), command);
    decision.events().forEach(event -> dir.apply(event, command.header().timestampMillis()));
    decision.steps().forEach(dir::apply);
    expiry.atOrBefore(dir.earliestKeptExpiryMs());
    return decision;
  }

  private Decision releaseName(String key, ReleaseNameStep release) {
    new StoreDirectory(directory, release.warehouse()).apply(release);
    return Decision.rejected(release.header().commandId(), release.rejection());
  }

  private Decision retainDeleted(String key, RetainDeletedStep retain) {
    new StoreDirectory(directory, retain.warehouse()).retain(retain);
    return Decision.reply(List.of(), CommandReply.done(retain.header().commandId()));
  }

  /** A commit whose new locations the directory has just checked and claimed for the entity. */
  private Decision commitRelocated(String key, CommitRelocatedStep step) {
    if (step.change() instanceof CommitViewCommand commit) {
      Routes.Decide<CommitViewCommand> decide =
          onView((state, c) -> ViewDecider.commit(state, c, step.held()));
      return decide.decide(key, commit);
    }
    Routes.Decide<CommitTableCommand> decide =
        onTable((state, c) -> TableDecider.commit(state, parsed(key, state), c, step.held()));
    return decide.decide(key, (CommitTableCommand) step.change());
  }

  /** The table's current metadata, or null when the table does not exist. */
  private TableMetadata parsed(String key, TableState state) {
    return state == null ? null : stores.parsed(key, state);
  }

  /** Decides on the table's state in the tables store, and writes what it decided. */
  private <T> Routes.Decide<T> onTable(BiFunction<TableState, T, Decision> decide) {
    return (key, value) -> {
      Decision decision = decide.apply(stores.table(key), value);
      stores.writeTable(key, decision);
      return decision;
    };
  }

  /** Decides on the view's state in the views store, and writes what it decided. */
  private <T> Routes.Decide<T> onView(BiFunction<TableState, T, Decision> decide) {
    return (key, value) -> {
      Decision decision = decide.apply(stores.view(key), value);
      stores.writeView(key, decision);
      return decision;
    };
  }

  /** A step that is the same for tables and views, decided on the store of its kind. */
  private <T extends KindedStep> Routes.Decide<T> byKind(
      BiFunction<TableState, T, Decision> decide) {
    Routes.Decide<T> onTable = onTable(decide);
    Routes.Decide<T> onView = onView(decide);
    return (key, step) -> (step.kind() == EntityKind.TABLE ? onTable : onView).decide(key, step);
  }

  private void emit(Record<String, byte[]> record, CommandHeader header, Decision decision) {
    List<CatalogEvent> events = decision.events();
    for (int i = 0; i < events.size(); i++) {
      CatalogEvent event = events.get(i);
      byte[] envelope = EventEnvelope.wrap(event, i, header.timestampMillis()).toBytes();
      context.forward(record.withKey(event.key()).withValue(envelope), CatalogTopology.EVENTS_SINK);
    }
    for (Step step : decision.steps()) {
      context.forward(
          record.withKey(step.key()).withValue(FloeJson.toBytes(step)), CatalogTopology.STEPS_SINK);
    }
    if (decision.reply() != null) {
      context.forward(
          record.withKey(header.replyTo()).withValue(FloeJson.toBytes(decision.reply())),
          CatalogTopology.REPLIES_SINK);
    }
  }
}
