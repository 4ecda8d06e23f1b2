package dev.floe.projections.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.state.TableState;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.SnapshotRefType;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** Replayed commits give the state the decider stored, which re-parsed its document per commit. */
class ReplayStateTest {
  private static final TableIdentifier ID = TableIdentifier.of(Namespace.of("ns"), "t");
  private static final String UUID = "00000000-0000-0000-0000-000000000001";

  @Test
  void replayedAppendsKeepEverySnapshotAndMetadataFileInTheLogs() {
    TableMetadata created =
        TableMetadata.buildFrom(
                TableMetadata.newTableMetadata(
                    new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
                    PartitionSpec.unpartitioned(),
                    "file:/w/ns/t",
                    Map.of("format-version", "2")))
            .assignUUID(UUID)
            .build();
    ReplayState state = new ReplayState();
    state.apply(new TableCreatedEvent("wh", ID, UUID, "m0", created, "c0", "p", 1));
    // What the live tables store holds: each commit applied to the parsed previous document.
    TableMetadata stored = TableMetadataParser.fromJson("m0", TableMetadataParser.toJson(created));
    for (int i = 1; i <= 3; i++) {
      List<MetadataUpdate> updates =
          List.of(
              new MetadataUpdate.AddSnapshot(
                  SnapshotParser.fromJson(
                      "{\"snapshot-id\":%d,\"sequence-number\":%d,\"timestamp-ms\":%d,\"manifest-list\":\"file:/m%d\",\"summary\":{\"operation\":\"append\"},\"schema-id\":0}"
                          .formatted(i, i, System.currentTimeMillis(), i))),
              new MetadataUpdate.SetSnapshotRef(
                  "main", (long) i, SnapshotRefType.BRANCH, null, null, null));
      state.apply(
          new TableCommittedEvent(
              "wh", ID, UUID, List.of(), updates, "m" + (i - 1), "m" + i, "c" + i, "p", i + 1));
      TableMetadata.Builder builder = TableMetadata.buildFrom(stored);
      updates.forEach(update -> update.applyTo(builder));
      stored = TableMetadataParser.fromJson("m" + i, TableMetadataParser.toJson(builder.build()));
    }

    TableState replayed = state.table("wh", ID);
    TableMetadata metadata = TableMetadataParser.fromJson(replayed.metadataJson());
    assertThat(metadata.snapshotLog()).hasSize(3);
    assertThat(metadata.previousFiles())
        .extracting(TableMetadata.MetadataLogEntry::file)
        .containsExactly("m0", "m1", "m2");
    assertThat(StateDigests.table(replayed.metadataLocation(), replayed.metadataJson()))
        .isEqualTo(StateDigests.table("m3", TableMetadataParser.toJson(stored)));
  }
}
