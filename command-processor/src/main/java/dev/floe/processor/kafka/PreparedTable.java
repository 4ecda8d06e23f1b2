package dev.floe.processor.kafka;

import dev.floe.events.FloeJson;
import dev.floe.events.state.TableState;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A table's prepared part of a multi-table transaction, kept in the tables store under {@link
 * dev.floe.events.Keys#prepared} until the coordinator's decision. While it is there, the table's
 * other commands and steps wait in {@code waiting}, in arrival order, and readers wait for the
 * decision (so none sees one table of a transaction committed and another not yet).
 *
 * @param next the state to install on commit; null when the change changes nothing
 */
record PreparedTable(String transactionId, TableState next, List<Waiting> waiting) {
  PreparedTable {
    Objects.requireNonNull(transactionId, "transactionId");
    waiting = waiting == null ? List.of() : List.copyOf(waiting);
  }

  /** A command or step that arrived while the table was prepared, as it was on its topic. */
  record Waiting(boolean step, byte[] value) {}

  PreparedTable plus(Waiting record) {
    List<Waiting> all = new ArrayList<>(waiting);
    all.add(record);
    return new PreparedTable(transactionId, next, all);
  }

  byte[] toBytes() {
    return FloeJson.toBytes(this);
  }

  static PreparedTable fromBytes(byte[] bytes) {
    return FloeJson.fromBytes(bytes, PreparedTable.class);
  }
}
