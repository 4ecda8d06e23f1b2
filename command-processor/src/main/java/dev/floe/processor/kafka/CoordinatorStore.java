package dev.floe.processor.kafka;

import dev.floe.events.FloeJson;
import dev.floe.events.command.CommitTransactionCommand;
import dev.floe.events.state.DirectoryKeys;
import dev.floe.processor.Decision;
import dev.floe.processor.TransactionCoordinator;
import dev.floe.processor.step.TransactionVoteStep;
import java.util.function.Function;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Each warehouse's multi-table transaction coordinator, run against its state in the directory
 * store: the state is read, decided on and written back (or deleted once nothing is active or
 * queued).
 */
final class CoordinatorStore {
  private final KeyValueStore<String, byte[]> directory;

  CoordinatorStore(KeyValueStore<String, byte[]> directory) {
    this.directory = directory;
  }

  /** A multi-table commit: begun now, or queued behind the warehouse's active transaction. */
  Decision begin(CommitTransactionCommand transaction) {
    return coordinate(
        transaction.warehouse(),
        state ->
            TransactionCoordinator.begin(
                new StoreDirectory(directory, transaction.warehouse()), state, transaction));
  }

  /** A prepared table's vote on the warehouse's active transaction. */
  Decision vote(TransactionVoteStep vote) {
    return coordinate(vote.warehouse(), state -> TransactionCoordinator.vote(state, vote));
  }

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
}
