package dev.floe.processor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.state.TableState;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SnapshotRefType;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The metadata a commit decision carries is what the processor starts the table's next commit from
 * instead of parsing the document it just wrote: it must decide every next commit exactly as a
 * parse of that document would.
 */
class CommittedMetadataTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LOCATION = "file:///tmp/wh/db/events";
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "data", Types.StringType.get()));
  private static final Schema WIDER =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "data", Types.StringType.get()),
          Types.NestedField.optional(3, "region", Types.StringType.get()));

  @Test
  void nextCommitsDecideAsFromAParseOfTheWrittenDocument() throws Exception {
    long now = System.currentTimeMillis();
    TableMetadata fresh =
        TableMetadata.newTableMetadata(
            SCHEMA, PartitionSpec.unpartitioned(), SortOrder.unsorted(), LOCATION, Map.of());
    TableMetadata created =
        TableMetadata.buildFrom(fresh)
            .setBranchSnapshot(
                SnapshotParser.fromJson(snapshot(1001, null, 1, now)), SnapshotRef.MAIN_BRANCH)
            .setRef("audit", SnapshotRef.tagBuilder(1001).build())
            .build();
    String createdAt = LOCATION + "/metadata/00001-created.metadata.json";
    TableState state =
        new TableState(created.uuid(), createdAt, TableMetadataParser.toJson(created), 1, 1);
    TableMetadata carried = TableMetadataParser.fromJson(createdAt, state.metadataJson());

    List<List<MetadataUpdate>> commits =
        List.of(
            List.of(new MetadataUpdate.SetProperties(Map.of("owner", "alice"))),
            append(2001, 1001, 2, now + 1),
            // Two appends in one commit: 2002 becomes an intermediate snapshot, which the build
            // drops from the snapshot log; a base still carrying these changes would do it again.
            concat(append(2002, 2001, 3, now + 2), append(2003, 2002, 4, now + 3)),
            List.of(new MetadataUpdate.AddSchema(WIDER), new MetadataUpdate.SetCurrentSchema(-1)),
            List.of(
                new MetadataUpdate.AddPartitionSpec(
                    PartitionSpec.builderFor(WIDER).identity("region").build()),
                new MetadataUpdate.SetDefaultPartitionSpec(-1)),
            List.of(
                new MetadataUpdate.RemoveSnapshotRef("audit"),
                new MetadataUpdate.RemoveSnapshots(Set.of(1001L))),
            List.of(
                new MetadataUpdate.SetProperties(
                    Map.of("write.metadata.previous-versions-max", "2"))),
            List.of(new MetadataUpdate.SetProperties(Map.of("a", "b"))),
            List.of(
                new MetadataUpdate.AddSortOrder(SortOrder.builderFor(WIDER).asc("id").build()),
                new MetadataUpdate.SetDefaultSortOrder(-1)),
            append(2004, 2003, 5, now + 4),
            List.of(new MetadataUpdate.RemoveProperties(Set.of("owner"))));

    for (int i = 0; i < commits.size(); i++) {
      CommitTableCommand command = command("c-" + i, commits.get(i));
      TableMetadata parsed =
          TableMetadataParser.fromJson(state.metadataLocation(), state.metadataJson());
      Decision fromCarried = TableDecider.commit(state, carried, command);
      Decision fromParsed = TableDecider.commit(state, parsed, command);
      assertThat(fromCarried.isRejected()).as("commit %d: %s", i, fromCarried.reply()).isFalse();

      TableState next = fromCarried.tableState();
      TableMetadata located = fromCarried.metadata();
      assertThat(located.metadataFileLocation()).isEqualTo(next.metadataLocation());
      assertThat(located.changes()).isEmpty();
      assertThat(TableMetadataParser.toJson(located)).isEqualTo(next.metadataJson());
      assertThat(next.metadataLocation()).isEqualTo(fromParsed.tableState().metadataLocation());
      // Built a moment apart: only the time of the build may differ.
      assertThat(withoutBuildTime(next.metadataJson()))
          .as("commit %d", i)
          .isEqualTo(withoutBuildTime(fromParsed.tableState().metadataJson()));

      state = next;
      carried = located;
    }
    TableMetadata last =
        TableMetadataParser.fromJson(state.metadataLocation(), state.metadataJson());
    assertThat(last.previousFiles()).hasSize(2);
    assertThat(last.snapshotLog())
        .extracting(entry -> entry.snapshotId())
        .containsExactly(2001L, 2003L, 2004L);
  }

  private static ObjectNode withoutBuildTime(String json) throws Exception {
    ObjectNode tree = (ObjectNode) JSON.readTree(json);
    tree.remove("last-updated-ms");
    return tree;
  }

  private static List<MetadataUpdate> append(long id, long parent, long sequence, long time) {
    return List.of(
        new MetadataUpdate.AddSnapshot(
            SnapshotParser.fromJson(snapshot(id, parent, sequence, time))),
        new MetadataUpdate.SetSnapshotRef(
            SnapshotRef.MAIN_BRANCH, id, SnapshotRefType.BRANCH, null, null, null));
  }

  private static List<MetadataUpdate> concat(List<MetadataUpdate> a, List<MetadataUpdate> b) {
    return Stream.concat(a.stream(), b.stream()).toList();
  }

  private static String snapshot(long id, Long parent, long sequence, long time) {
    return "{\"sequence-number\":"
        + sequence
        + ",\"snapshot-id\":"
        + id
        + (parent == null ? "" : ",\"parent-snapshot-id\":" + parent)
        + ",\"timestamp-ms\":"
        + time
        + ",\"summary\":{\"operation\":\"append\"},\"manifest-list\":\""
        + LOCATION
        + "/metadata/snap-"
        + id
        + ".avro\",\"schema-id\":0}";
  }

  private static CommitTableCommand command(String id, List<MetadataUpdate> updates) {
    return new CommitTableCommand(
        new CommandHeader(id, 1_700_000_000_000L, "alice", "api-1", null),
        "wh",
        TableIdentifier.of(Namespace.of("db"), "events"),
        List.of(),
        updates);
  }
}
