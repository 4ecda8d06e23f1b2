package dev.floe.projections.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.TableRenamedEvent;
import dev.floe.events.event.TableRestoredEvent;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** Events offered in pieces, as a replay reads them, are applied in causal order. */
class CausalOrderTest {
  private static final TableIdentifier T = TableIdentifier.of(Namespace.of("ns"), "t");
  private static final TableIdentifier U = TableIdentifier.of(Namespace.of("ns"), "u");
  private static final String FIRST = "00000000-0000-0000-0000-000000000001";
  private static final String SECOND = "00000000-0000-0000-0000-000000000002";

  @Test
  void aRenameReadBeforeItsTableWaitsAndTheOldNameIsReusedOnlyAfterIt() {
    ReplayState state = new ReplayState();
    CausalOrder order = new CausalOrder(state);
    // Partition 1 holds the rename (keyed by the new name); partition 0 the table's own events and
    // a new table under the old name, created after the rename freed it.
    order.offer(1, new TableRenamedEvent("wh", T, U, FIRST, "m1", "c3", "p", 3));
    order.offer(0, created(T, FIRST, "m0"));
    order.applyReady();
    assertThat(state.tableEntry("wh", T).sequence()).isEqualTo(1);
    assertThat(state.tableEntry("wh", U)).as("the rename waits for the commit before it").isNull();

    order.offer(
        0, new TableCommittedEvent("wh", T, FIRST, List.of(), List.of(), "m0", "m1", "c2", "p", 2));
    order.offer(0, created(T, SECOND, "n0"));
    order.applyReady();
    order.requireAllApplied();

    assertThat(state.table("wh", U).tableUuid()).isEqualTo(FIRST);
    assertThat(state.table("wh", U).metadataLocation()).isEqualTo("m1");
    assertThat(state.tableEntry("wh", U).sequence()).isEqualTo(3);
    assertThat(state.table("wh", T).tableUuid()).isEqualTo(SECOND);
    assertThat(state.eventsApplied()).isEqualTo(4);
  }

  @Test
  void anEventWhoseCauseIsNotInTheLogIsReported() {
    ReplayState state = new ReplayState();
    CausalOrder order = new CausalOrder(state);
    order.offer(
        0, new TableCommittedEvent("wh", T, FIRST, List.of(), List.of(), "m0", "m1", "c2", "p", 2));
    order.applyReady();

    assertThat(state.eventsApplied()).isZero();
    assertThatThrownBy(order::requireAllApplied)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("floe.table.committed of ns.t (sequence 2)")
        .hasMessageContaining("has no cause");
  }

  @Test
  void aRestoreReadBeforeItsDropWaitsAndBringsTheTableBackAsItWas() {
    ReplayState state = new ReplayState();
    CausalOrder order = new CausalOrder(state);
    // Partition 1 holds the restore under another name; partition 0 the table, its drop and a new
    // table that took its name meanwhile.
    order.offer(1, new TableRestoredEvent("wh", T, U, FIRST, "m0", "c4", "p", 3));
    order.offer(0, created(T, FIRST, "m0"));
    order.applyReady();
    assertThat(state.tableEntry("wh", U)).as("the restore waits for the drop").isNull();

    order.offer(0, new TableDroppedEvent("wh", T, FIRST, "m0", false, "c2", "p", 2));
    order.offer(0, created(T, SECOND, "n0"));
    order.applyReady();
    order.requireAllApplied();

    assertThat(state.table("wh", U).tableUuid()).isEqualTo(FIRST);
    assertThat(state.table("wh", U).metadataLocation()).isEqualTo("m0");
    assertThat(state.tableEntry("wh", U).sequence()).isEqualTo(3);
    assertThat(state.table("wh", T).tableUuid()).isEqualTo(SECOND);
  }

  @Test
  void anExpungedTableCannotBeRestored() {
    ReplayState state = new ReplayState();
    CausalOrder order = new CausalOrder(state);
    order.offer(0, created(T, FIRST, "m0"));
    order.offer(0, new TableDroppedEvent("wh", T, FIRST, "m0", true, "c2", "p", 2));
    order.offer(
        0, new TableExpungedEvent("wh", T, FIRST, "m0", true, "c2", "c3", "floe-expiry", 3));
    order.offer(0, new TableRestoredEvent("wh", T, T, FIRST, "m0", "c4", "p", 3));
    order.applyReady();

    assertThat(state.table("wh", T)).isNull();
    assertThatThrownBy(order::requireAllApplied).hasMessageContaining("floe.table.restored");
  }

  private static TableCreatedEvent created(TableIdentifier id, String uuid, String location) {
    TableMetadata metadata =
        TableMetadata.buildFrom(
                TableMetadata.newTableMetadata(
                    new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
                    PartitionSpec.unpartitioned(),
                    "file:/w/ns/" + id.name(),
                    Map.of("format-version", "2")))
            .assignUUID(uuid)
            .build();
    return new TableCreatedEvent("wh", id, uuid, location, metadata, "c1", "p", 1);
  }
}
