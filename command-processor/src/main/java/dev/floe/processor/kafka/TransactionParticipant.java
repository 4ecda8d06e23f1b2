package dev.floe.processor.kafka;

import dev.floe.events.Rejection;
import dev.floe.events.RejectionCode;
import dev.floe.events.state.TableState;
import dev.floe.processor.Decision;
import dev.floe.processor.TableDecider;
import dev.floe.processor.step.PrepareTableStep;
import dev.floe.processor.step.ResolvePreparedStep;
import dev.floe.processor.step.TransactionVoteStep;
import java.util.List;
import org.apache.iceberg.TableMetadata;

/**
 * A table's part in a multi-table transaction, on the table's own partition: it prepares its change
 * (checked as a commit, its metadata file written, the result held), holds back the commands and
 * steps that arrive for it meanwhile, and installs or drops what it prepared when the coordinator
 * has decided.
 */
final class TransactionParticipant {
  private final TableStores stores;

  TransactionParticipant(TableStores stores) {
    this.stores = stores;
  }

  /**
   * A command or step for a table that is prepared in a multi-table transaction waits, in arrival
   * order, until the coordinator's decision releases the table.
   *
   * @return true when the table is held and the record was queued behind it
   */
  boolean queueIfHeld(String key, boolean isStep, byte[] value) {
    PreparedTable prepared = stores.prepared(key);
    if (prepared == null) {
      return false;
    }
    stores.putPrepared(key, prepared.plus(new PreparedTable.Waiting(isStep, value)));
    return true;
  }

  /**
   * Checks a table's part of a transaction as a commit, writes its next metadata file and holds the
   * result. A table already held by a transaction votes no (the coordinator runs one transaction
   * per warehouse at a time, so this does not happen while it works as designed).
   */
  Decision prepare(String key, PrepareTableStep step) {
    if (stores.prepared(key) != null) {
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
    TableState state = stores.table(key);
    TableMetadata base = state == null ? null : stores.parsed(key, state);
    TableDecider.Prepared prepared = TableDecider.prepare(state, base, step);
    if (prepared.vote().yes()) {
      if (prepared.next() != null) {
        TableStores.requireWithinRecordLimit(prepared.next());
        stores.writeMetadataFile(prepared.next());
      }
      stores.putPrepared(
          key, new PreparedTable(step.header().commandId(), prepared.next(), List.of()));
    }
    return Decision.step(prepared.vote());
  }

  /**
   * Installs (or drops) what the table prepared for this transaction.
   *
   * @return the commands and steps that waited for the table, in their order, to be decided now
   */
  List<PreparedTable.Waiting> resolve(String key, ResolvePreparedStep step) {
    PreparedTable prepared = stores.prepared(key);
    if (prepared == null) {
      return List.of(); // the table voted no: nothing was prepared
    }
    if (!prepared.transactionId().equals(step.header().commandId())) {
      return List.of(); // held by another transaction: this one's prepare was refused
    }
    if (prepared.next() != null) {
      if (step.commit()) {
        stores.putTable(key, prepared.next());
      } else {
        stores.deleteQuietly(prepared.next().metadataLocation());
      }
    }
    stores.deletePrepared(key);
    return prepared.waiting();
  }
}
