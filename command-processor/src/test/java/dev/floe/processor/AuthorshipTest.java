package dev.floe.processor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.Rejection;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.state.TableState;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.SnapshotRefType;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class AuthorshipTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @Test
  void stampsTheCommittingPrincipalOverClientValuesAndKeepsLineageKeys() {
    TableMetadata base =
        TableMetadata.newTableMetadata(
            SCHEMA, PartitionSpec.unpartitioned(), SortOrder.unsorted(), "file:///wh/t", Map.of());
    String location = "file:///wh/t/metadata/00000-a.metadata.json";
    TableState state =
        new TableState(base.uuid(), location, TableMetadataParser.toJson(base), 1, 1);
    Snapshot sent =
        SnapshotParser.fromJson(
            "{\"snapshot-id\":7,\"sequence-number\":1,\"timestamp-ms\":1700000000000,"
                + "\"manifest-list\":\"file:///wh/t/metadata/snap-7.avro\",\"schema-id\":0,"
                + "\"summary\":{\"operation\":\"append\",\"floe.author-name\":\"mallory\","
                + "\"floe.author-id\":\"mallory\",\"floe.source.repo\":\"git@example.org:etl.git\"}}");
    CommitTableCommand command =
        new CommitTableCommand(
            new CommandHeader("cmd-1", 1L, "alice", "api-1", null),
            "wh",
            TableIdentifier.of("db", "t"),
            List.of(),
            List.of(
                new MetadataUpdate.AddSnapshot(sent),
                new MetadataUpdate.SetSnapshotRef(
                    "main", 7L, SnapshotRefType.BRANCH, null, null, null)));

    Decision decision =
        TableDecider.commit(
            state, TableMetadataParser.fromJson(location, state.metadataJson()), command);

    Rejection rejection = decision.reply().rejection();
    assertThat(rejection).isNull();
    Snapshot committed =
        TableMetadataParser.fromJson(
                decision.tableState().metadataLocation(), decision.tableState().metadataJson())
            .snapshot(7L);
    assertThat(committed.summary())
        .containsEntry(Authorship.AUTHOR_NAME, "alice")
        .containsEntry(Authorship.AUTHOR_ID, "alice")
        .containsEntry(Authorship.AUTHOR_EMAIL, "")
        .containsEntry("floe.source.repo", "git@example.org:etl.git")
        .doesNotContainEntry(Authorship.AUTHOR_NAME, "mallory");
    assertThat(committed.operation()).isEqualTo("append");
    MetadataUpdate logged = ((TableCommittedEvent) decision.events().get(0)).updates().get(0);
    assertThat(((MetadataUpdate.AddSnapshot) logged).snapshot().summary())
        .as("the event records the stamped snapshot, so a replay rebuilds it")
        .containsEntry(Authorship.AUTHOR_NAME, "alice");
  }
}
