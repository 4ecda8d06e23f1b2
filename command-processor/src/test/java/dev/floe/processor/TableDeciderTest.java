package dev.floe.processor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.CommandReply;
import dev.floe.events.Rejection;
import dev.floe.events.RejectionCode;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.state.TableState;
import dev.floe.processor.step.CreateTableStep;
import dev.floe.processor.step.DropTableStep;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Given a table's state, when a table command or step is decided, then these events follow. */
class TableDeciderTest {
  private static final String WAREHOUSE = "wh";
  private static final TableIdentifier TABLE = TableIdentifier.of(Namespace.of("db"), "orders");
  private static final String LOCATION = "file:///tmp/wh/db/orders";
  private static final String CURRENT_FILE = LOCATION + "/metadata/00002-previous.metadata.json";
  private static final long SNAPSHOT_ID = 1001L;
  private static final String TAG = "audit";

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "data", Types.StringType.get()));

  /** Sets a property: a change that always produces new metadata. */
  private static final List<MetadataUpdate> SET_OWNER =
      List.of(new MetadataUpdate.SetProperties(Map.of("owner", "alice")));

  private TableState state;
  private TableMetadata base;

  @BeforeEach
  void givenTableWithSnapshotOnMainAndTag() {
    TableMetadata fresh =
        TableMetadata.newTableMetadata(
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("id").build(),
            SortOrder.builderFor(SCHEMA).asc("id").build(),
            LOCATION,
            Map.of());
    Snapshot snapshot =
        SnapshotParser.fromJson(
            "{\"sequence-number\":1,\"snapshot-id\":"
                + SNAPSHOT_ID
                + ",\"timestamp-ms\":"
                + (fresh.lastUpdatedMillis() + 1)
                + ",\"summary\":{\"operation\":\"append\"},"
                + "\"manifest-list\":\""
                + LOCATION
                + "/metadata/snap-1001.avro\",\"schema-id\":0}");
    TableMetadata withRefs =
        TableMetadata.buildFrom(fresh)
            .setBranchSnapshot(snapshot, SnapshotRef.MAIN_BRANCH)
            .setRef(TAG, SnapshotRef.tagBuilder(SNAPSHOT_ID).build())
            .build();
    state =
        new TableState(withRefs.uuid(), CURRENT_FILE, TableMetadataParser.toJson(withRefs), 3, 7);
    base = TableMetadataParser.fromJson(state.metadataLocation(), state.metadataJson());
  }

  @Test
  void baseTableHasTheShapeTheseTestsRelyOn() {
    assertThat(base.currentSchemaId()).isZero();
    assertThat(base.lastColumnId()).isEqualTo(2);
    assertThat(base.defaultSpecId()).isZero();
    assertThat(base.lastAssignedPartitionId()).isEqualTo(1000);
    assertThat(base.defaultSortOrderId()).isEqualTo(1);
    assertThat(base.ref(SnapshotRef.MAIN_BRANCH).snapshotId()).isEqualTo(SNAPSHOT_ID);
    assertThat(base.ref(TAG).isTag()).isTrue();
  }

  @Nested
  class Commit {
    @Test
    void rejectsCommitOnMissingTable() {
      Decision decision =
          TableDecider.commit(null, null, commit("c-missing", List.of(), SET_OWNER));

      assertRejected(
          decision, "c-missing", RejectionCode.TABLE_NOT_FOUND, "Table does not exist: db.orders");
    }

    @Test
    void rejectsCommitOnMissingTableEvenWhenItAssertsTableDoesNotExist() {
      Decision decision =
          TableDecider.commit(
              null,
              null,
              commit(
                  "c-create-txn",
                  List.of(new UpdateRequirement.AssertTableDoesNotExist()),
                  SET_OWNER));

      assertRejected(
          decision,
          "c-create-txn",
          RejectionCode.TABLE_NOT_FOUND,
          "Table does not exist: db.orders");
    }

    @Test
    void rejectsAssertTableDoesNotExistOnExistingTable() {
      assertRequirementFails(
          new UpdateRequirement.AssertTableDoesNotExist(),
          "Requirement failed: table already exists");
    }

    @Test
    void commitsWhenTableUuidMatches() {
      assertRequirementHolds(new UpdateRequirement.AssertTableUUID(base.uuid()));
    }

    @Test
    void comparesTableUuidIgnoringCase() {
      assertRequirementHolds(new UpdateRequirement.AssertTableUUID(base.uuid().toUpperCase()));
    }

    @Test
    void rejectsCommitWhenTableWasReplaced() {
      String other = UUID.randomUUID().toString();

      assertRequirementFails(
          new UpdateRequirement.AssertTableUUID(other),
          "Requirement failed: UUID does not match: expected " + base.uuid() + " != " + other);
    }

    @Test
    void commitsWhenBranchStillAtExpectedSnapshot() {
      assertRequirementHolds(
          new UpdateRequirement.AssertRefSnapshotID(SnapshotRef.MAIN_BRANCH, SNAPSHOT_ID));
    }

    @Test
    void commitsWhenTagStillAtExpectedSnapshot() {
      assertRequirementHolds(new UpdateRequirement.AssertRefSnapshotID(TAG, SNAPSHOT_ID));
    }

    @Test
    void rejectsCommitWhenSnapshotMoved() {
      assertRequirementFails(
          new UpdateRequirement.AssertRefSnapshotID(SnapshotRef.MAIN_BRANCH, 999L),
          "Requirement failed: branch main has changed: expected id 999 != 1001");
    }

    @Test
    void rejectsCommitWhenTagMoved() {
      assertRequirementFails(
          new UpdateRequirement.AssertRefSnapshotID(TAG, 999L),
          "Requirement failed: tag audit has changed: expected id 999 != 1001");
    }

    @Test
    void commitsWhenRefExpectedAbsentIsAbsent() {
      assertRequirementHolds(new UpdateRequirement.AssertRefSnapshotID("feature", null));
    }

    @Test
    void rejectsCommitWhenRefExpectedAbsentWasCreatedConcurrently() {
      assertRequirementFails(
          new UpdateRequirement.AssertRefSnapshotID(SnapshotRef.MAIN_BRANCH, null),
          "Requirement failed: branch main was created concurrently");
    }

    @Test
    void rejectsCommitWhenExpectedRefIsMissing() {
      assertRequirementFails(
          new UpdateRequirement.AssertRefSnapshotID("feature", SNAPSHOT_ID),
          "Requirement failed: branch or tag feature is missing, expected 1001");
    }

    @Test
    void commitsWhenLastAssignedFieldIdUnchanged() {
      assertRequirementHolds(new UpdateRequirement.AssertLastAssignedFieldId(2));
    }

    @Test
    void rejectsCommitWhenLastAssignedFieldIdChanged() {
      assertRequirementFails(
          new UpdateRequirement.AssertLastAssignedFieldId(1),
          "Requirement failed: last assigned field id changed: expected id 1 != 2");
    }

    @Test
    void commitsWhenCurrentSchemaUnchanged() {
      assertRequirementHolds(new UpdateRequirement.AssertCurrentSchemaID(0));
    }

    @Test
    void rejectsCommitWhenCurrentSchemaChanged() {
      assertRequirementFails(
          new UpdateRequirement.AssertCurrentSchemaID(1),
          "Requirement failed: current schema changed: expected id 1 != 0");
    }

    @Test
    void commitsWhenLastAssignedPartitionIdUnchanged() {
      assertRequirementHolds(new UpdateRequirement.AssertLastAssignedPartitionId(1000));
    }

    @Test
    void rejectsCommitWhenLastAssignedPartitionIdChanged() {
      assertRequirementFails(
          new UpdateRequirement.AssertLastAssignedPartitionId(999),
          "Requirement failed: last assigned partition id changed: expected id 999 != 1000");
    }

    @Test
    void commitsWhenDefaultSpecUnchanged() {
      assertRequirementHolds(new UpdateRequirement.AssertDefaultSpecID(0));
    }

    @Test
    void rejectsCommitWhenDefaultSpecChanged() {
      assertRequirementFails(
          new UpdateRequirement.AssertDefaultSpecID(1),
          "Requirement failed: default partition spec changed: expected id 1 != 0");
    }

    @Test
    void commitsWhenDefaultSortOrderUnchanged() {
      assertRequirementHolds(new UpdateRequirement.AssertDefaultSortOrderID(1));
    }

    @Test
    void rejectsCommitWhenDefaultSortOrderChanged() {
      assertRequirementFails(
          new UpdateRequirement.AssertDefaultSortOrderID(0),
          "Requirement failed: default sort order changed: expected id 0 != 1");
    }

    @Test
    void rejectsCommitWhenAnyOfSeveralRequirementsFails() {
      List<UpdateRequirement> requirements =
          List.of(
              new UpdateRequirement.AssertTableUUID(base.uuid()),
              new UpdateRequirement.AssertCurrentSchemaID(0),
              new UpdateRequirement.AssertDefaultSpecID(5));

      Decision decision =
          TableDecider.commit(state, base, commit("c-several", requirements, SET_OWNER));

      assertRejected(
          decision,
          "c-several",
          RejectionCode.REQUIREMENT_FAILED,
          "Requirement failed: default partition spec changed: expected id 5 != 0");
    }

    @Test
    void acceptsUpdatesThatChangeNothingWithoutEvents() {
      List<MetadataUpdate> noOps =
          List.of(
              new MetadataUpdate.SetCurrentSchema(0),
              new MetadataUpdate.SetDefaultPartitionSpec(0),
              new MetadataUpdate.SetDefaultSortOrder(1));

      Decision decision =
          TableDecider.commit(
              state,
              base,
              commit("c-noop", List.of(new UpdateRequirement.AssertCurrentSchemaID(0)), noOps));

      assertThat(decision.events()).isEmpty();
      assertThat(decision.steps()).isEmpty();
      assertThat(decision.tableState()).isNull();
      assertThat(decision.tableRemoved()).isFalse();
      assertThat(decision.reply()).isEqualTo(CommandReply.table("c-noop", CURRENT_FILE));
    }

    @Test
    void acceptsEmptyCommitWithoutEvents() {
      Decision decision = TableDecider.commit(state, base, commit("c-empty", List.of(), List.of()));

      assertThat(decision.events()).isEmpty();
      assertThat(decision.tableState()).isNull();
      assertThat(decision.reply().accepted()).isTrue();
      assertThat(decision.reply().metadataLocation()).isEqualTo(CURRENT_FILE);
    }

    @Test
    void rejectsUpdateToUnknownSchemaAsInvalidArgument() {
      Decision decision =
          TableDecider.commit(
              state,
              base,
              commit("c-bad", List.of(), List.of(new MetadataUpdate.SetCurrentSchema(42))));

      assertThat(decision.events()).isEmpty();
      assertThat(decision.tableState()).isNull();
      assertThat(decision.reply().accepted()).isFalse();
      assertThat(decision.reply().rejection().code()).isEqualTo(RejectionCode.INVALID_ARGUMENT);
      assertThat(decision.reply().rejection().message()).contains("42");
    }

    @Test
    void changesCurrentSchemaWhenSchemaIsAddedAndSelected() {
      Schema evolved =
          new Schema(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "data", Types.StringType.get()),
              Types.NestedField.optional(3, "ts", Types.TimestampType.withZone()));
      List<MetadataUpdate> updates =
          List.of(new MetadataUpdate.AddSchema(evolved), new MetadataUpdate.SetCurrentSchema(-1));
      List<UpdateRequirement> requirements =
          List.of(
              new UpdateRequirement.AssertCurrentSchemaID(0),
              new UpdateRequirement.AssertLastAssignedFieldId(2));

      Decision decision =
          TableDecider.commit(state, base, commit("c-schema", requirements, updates));

      TableCommittedEvent event = assertCommitted(decision, "c-schema");
      assertThat(event.requirements()).isEqualTo(requirements);
      assertThat(event.updates()).isEqualTo(updates);
      TableMetadata committed =
          TableMetadataParser.fromJson(
              decision.tableState().metadataLocation(), decision.tableState().metadataJson());
      assertThat(committed.currentSchemaId()).isEqualTo(1);
      assertThat(committed.schema().asStruct()).isEqualTo(evolved.asStruct());
      assertThat(committed.lastColumnId()).isEqualTo(3);
      assertThat(committed.schemas()).hasSize(2);
      assertThat(decision.reply())
          .as("the reply names the new file; the document is not copied into it")
          .isEqualTo(CommandReply.table("c-schema", decision.tableState().metadataLocation()));
    }

    @Test
    void recordsPreviousMetadataFileInMetadataLog() {
      Decision decision = TableDecider.commit(state, base, commit("c-log", List.of(), SET_OWNER));

      TableMetadata committed =
          TableMetadataParser.fromJson(
              decision.tableState().metadataLocation(), decision.tableState().metadataJson());
      assertThat(committed.properties()).containsEntry("owner", "alice");
      assertThat(committed.previousFiles())
          .extracting(TableMetadata.MetadataLogEntry::file)
          .contains(CURRENT_FILE);
    }

    @Test
    void incrementsVersionAndSequenceOfTheTable() {
      Decision decision = TableDecider.commit(state, base, commit("c-next", List.of(), SET_OWNER));

      TableState next = decision.tableState();
      assertThat(next.version()).isEqualTo(state.version() + 1);
      assertThat(next.sequence()).isEqualTo(state.sequence() + 1);
      assertThat(next.tableUuid()).isEqualTo(state.tableUuid());
      assertThat(next.metadataLocation())
          .isEqualTo(LOCATION + "/metadata/00003-c-next.metadata.json");
    }

    @Test
    void namesTheMetadataFileAfterTheCommandSoReprocessingRewritesIt() {
      CommitTableCommand command = commit("c-again", List.of(), SET_OWNER);

      Decision first = TableDecider.commit(state, base, command);
      Decision second = TableDecider.commit(state, base, command);

      assertThat(second.tableState().metadataLocation())
          .isEqualTo(first.tableState().metadataLocation());
    }

    private void assertRequirementHolds(UpdateRequirement requirement) {
      CommitTableCommand command = commit("c-ok", List.of(requirement), SET_OWNER);

      Decision decision = TableDecider.commit(state, base, command);

      TableCommittedEvent event = assertCommitted(decision, "c-ok");
      assertThat(event.requirements()).containsExactly(requirement);
    }

    private void assertRequirementFails(UpdateRequirement requirement, String message) {
      assertThat(message).startsWith("Requirement failed: ");

      Decision decision =
          TableDecider.commit(state, base, commit("c-fail", List.of(requirement), SET_OWNER));

      assertRejected(decision, "c-fail", RejectionCode.REQUIREMENT_FAILED, message);
    }

    private TableCommittedEvent assertCommitted(Decision decision, String commandId) {
      assertThat(decision.isRejected()).isFalse();
      assertThat(decision.steps()).isEmpty();
      assertThat(decision.tableRemoved()).isFalse();
      assertThat(decision.events()).hasSize(1).first().isInstanceOf(TableCommittedEvent.class);
      TableCommittedEvent event = (TableCommittedEvent) decision.events().get(0);
      assertThat(event.sequence()).isEqualTo(state.sequence() + 1);
      assertThat(event.commandId()).isEqualTo(commandId);
      assertThat(event.principal()).isEqualTo("alice");
      assertThat(event.warehouse()).isEqualTo(WAREHOUSE);
      assertThat(event.identifier()).isEqualTo(TABLE);
      assertThat(event.tableUuid()).isEqualTo(base.uuid());
      assertThat(event.previousMetadataLocation()).isEqualTo(CURRENT_FILE);
      assertThat(event.metadataLocation())
          .isNotEqualTo(CURRENT_FILE)
          .endsWith(".metadata.json")
          .contains(commandId);
      assertThat(decision.reply().accepted()).isTrue();
      assertThat(decision.reply().commandId()).isEqualTo(commandId);
      assertThat(decision.reply().metadataLocation()).isEqualTo(event.metadataLocation());
      assertThat(decision.tableState()).isNotNull();
      assertThat(decision.tableState().metadataLocation()).isEqualTo(event.metadataLocation());
      assertThat(decision.tableState().sequence()).isEqualTo(event.sequence());
      assertThat(decision.tableState().version()).isEqualTo(state.version() + 1);
      return event;
    }
  }

  /** A commit that moves where the table's files go is checked again (issue #7). */
  @Nested
  class Paths {
    @Test
    void aTablesUuidNeverChanges() {
      Decision decision =
          TableDecider.commit(
              state,
              base,
              commit(
                  "c-uuid",
                  List.of(),
                  List.of(new MetadataUpdate.AssignUUID(UUID.randomUUID().toString()))));
      assertThat(decision.reply().rejection().code()).isEqualTo(RejectionCode.INVALID_REQUEST);
      assertThat(decision.reply().rejection().message()).startsWith("Cannot assign uuid");
    }

    @Test
    void movesInsideItsOwnLocationWithoutTheDirectoryButNowhereElse() {
      Decision inside =
          TableDecider.commit(
              state,
              base,
              commit(
                  "c-in",
                  List.of(),
                  List.of(new MetadataUpdate.SetLocation(base.location() + "/sub"))));
      Decision held =
          TableDecider.commit(
              state,
              base,
              commit(
                  "c-held",
                  List.of(),
                  List.of(new MetadataUpdate.SetLocation("file:///tmp/wh/db/moved"))),
              List.of("file:///tmp/wh/db/moved"));
      Decision elsewhere =
          TableDecider.commit(
              state,
              base,
              commit(
                  "c-out",
                  List.of(),
                  List.of(new MetadataUpdate.SetLocation("file:///tmp/wh/db/moved"))));
      assertThat(inside.isRejected()).isFalse();
      assertThat(held.isRejected()).isFalse();
      assertThat(elsewhere.reply().rejection().message()).startsWith("Cannot move files to");
    }

    @Test
    void rejectsAWriteDataPathOutsideTheTableLocation() {
      Decision decision =
          TableDecider.commit(
              state,
              base,
              commit(
                  "c-data-path",
                  List.of(),
                  List.of(
                      new MetadataUpdate.SetProperties(
                          Map.of("write.data.path", "file:///tmp/wh/db/orders2/data")))));
      assertRejected(
          decision,
          "c-data-path",
          RejectionCode.INVALID_REQUEST,
          "Cannot move files to file:///tmp/wh/db/orders2/data in this commit: a new location"
              + " must be claimed first (send set-location or the write path alone, not in a"
              + " multi-table transaction)");
    }

    @Test
    void rejectsAMetadataOrObjectStoragePathOutsideTheTableLocation() {
      for (String key : List.of("write.metadata.path", "write.object-storage.path")) {
        Decision decision =
            TableDecider.commit(
                state,
                base,
                commit(
                    "c-" + key,
                    List.of(),
                    List.of(new MetadataUpdate.SetProperties(Map.of(key, "file:///tmp/other")))));
        assertThat(decision.isRejected()).as(key).isTrue();
        assertThat(decision.reply().rejection().code()).isEqualTo(RejectionCode.INVALID_REQUEST);
      }
    }

    @Test
    void acceptsPathsInsideTheTableLocation() {
      Decision decision =
          TableDecider.commit(
              state,
              base,
              commit(
                  "c-inside",
                  List.of(),
                  List.of(
                      new MetadataUpdate.SetProperties(
                          Map.of("write.data.path", LOCATION + "/data-v2")))));
      assertThat(decision.isRejected()).isFalse();
    }

    @Test
    void rejectsAMovedLocationWithRelativeSegmentsAndChecksPathsAgainstTheNewOne() {
      Decision relative =
          TableDecider.commit(
              state,
              base,
              commit(
                  "c-relative",
                  List.of(),
                  List.of(new MetadataUpdate.SetLocation("file:///tmp/wh/db/../other"))));
      assertThat(relative.isRejected()).isTrue();
      Decision moved =
          TableDecider.commit(
              state,
              base,
              commit(
                  "c-moved",
                  List.of(),
                  List.of(
                      new MetadataUpdate.SetProperties(
                          Map.of("write.data.path", LOCATION + "/data")),
                      new MetadataUpdate.SetLocation("file:///tmp/wh/db/orders-moved"))));
      assertThat(moved.isRejected()).isTrue();
      assertThat(moved.reply().rejection().message()).contains("orders-moved");
    }
  }

  @Nested
  class Create {
    @Test
    void createsTableWhenKeyIsFree() {
      String file = LOCATION + "/metadata/00000-c-create.metadata.json";
      CreateTableStep step = new CreateTableStep(header("c-create"), WAREHOUSE, TABLE, base, file);

      Decision decision = TableDecider.create(null, step);

      assertThat(decision.events())
          .containsExactly(
              new TableCreatedEvent(
                  WAREHOUSE, TABLE, base.uuid(), file, base, "c-create", "alice", 1));
      String json = TableMetadataParser.toJson(base);
      assertThat(decision.tableState()).isEqualTo(new TableState(base.uuid(), file, json, 1, 1));
      assertThat(decision.reply()).isEqualTo(CommandReply.table("c-create", file));
      assertThat(decision.tableRemoved()).isFalse();
    }

    @Test
    void refusesToClobberExistingTable() {
      CreateTableStep step =
          new CreateTableStep(header("c-clobber"), WAREHOUSE, TABLE, base, LOCATION + "/x");

      Decision decision = TableDecider.create(state, step);

      assertRejected(
          decision,
          "c-clobber",
          RejectionCode.TABLE_ALREADY_EXISTS,
          "Table already exists: db.orders");
      assertThat(decision.tableRemoved()).isFalse();
    }
  }

  @Nested
  class Drop {
    @Test
    void rejectsDropOfMissingTable() {
      Decision decision =
          TabularLifecycle.drop(null, new DropTableStep(header("c-drop"), WAREHOUSE, TABLE, false));

      assertRejected(
          decision, "c-drop", RejectionCode.TABLE_NOT_FOUND, "Table does not exist: db.orders");
      assertThat(decision.tableRemoved()).isFalse();
    }

    @Test
    void dropsExistingTable() {
      Decision decision =
          TabularLifecycle.drop(state, new DropTableStep(header("c-drop"), WAREHOUSE, TABLE, true));

      assertThat(decision.events())
          .containsExactly(
              new TableDroppedEvent(
                  WAREHOUSE,
                  TABLE,
                  state.tableUuid(),
                  CURRENT_FILE,
                  true,
                  "c-drop",
                  "alice",
                  state.sequence() + 1));
      assertThat(decision.tableRemoved()).isTrue();
      assertThat(decision.tableState()).isNull();
      assertThat(decision.reply()).isEqualTo(CommandReply.done("c-drop"));
    }
  }

  private static void assertRejected(
      Decision decision, String commandId, RejectionCode code, String message) {
    assertThat(decision.isRejected()).isTrue();
    assertThat(decision.events()).isEmpty();
    assertThat(decision.steps()).isEmpty();
    assertThat(decision.tableState()).isNull();
    assertThat(decision.reply())
        .isEqualTo(CommandReply.rejected(commandId, new Rejection(code, message)));
  }

  private static CommitTableCommand commit(
      String commandId, List<UpdateRequirement> requirements, List<MetadataUpdate> updates) {
    return new CommitTableCommand(header(commandId), WAREHOUSE, TABLE, requirements, updates);
  }

  private static CommandHeader header(String commandId) {
    return new CommandHeader(commandId, 1_700_000_000_000L, "alice", "api-1", null);
  }
}
