package dev.floe.processor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.CommandReply;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.state.MetadataDocuments;
import dev.floe.events.state.TableState;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * A commit whose metadata file the API wrote ahead (docs/architecture.md, <i>Writing ahead</i>):
 * taken as it is on the base it was decided on, decided again on any other.
 */
class WrittenAheadDecisionTest {
  private static final TableIdentifier TABLE = TableIdentifier.of(Namespace.of("db"), "orders");
  private static final String LOCATION = "file:///tmp/wh/db/orders";
  private static final String CURRENT_FILE = LOCATION + "/metadata/00002-previous.metadata.json";
  private static final List<MetadataUpdate> SET_OWNER =
      List.of(new MetadataUpdate.SetProperties(Map.of("owner", "alice")));

  private final TableState state;
  private final TableMetadata base;

  WrittenAheadDecisionTest() {
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    TableMetadata table =
        TableMetadata.newTableMetadata(
            schema, PartitionSpec.unpartitioned(), SortOrder.unsorted(), LOCATION, Map.of());
    state = new TableState(table.uuid(), CURRENT_FILE, TableMetadataParser.toJson(table), 3, 7);
    base = TableMetadataParser.fromJson(state.metadataLocation(), state.metadataJson());
  }

  /** No file is read to take a file written ahead. */
  private final MetadataDocuments noReads =
      location -> {
        throw new AssertionError("read " + location);
      };

  @Test
  void namesTheFileWrittenAheadByTheApisIdNotTheCommands() {
    Decision ahead = TableDecider.commit(state, base, commit("c-1", List.of(), SET_OWNER), "f-1");

    assertThat(ahead.tableState().metadataLocation())
        .isEqualTo(LOCATION + "/metadata/00003-f-1.metadata.json");
  }

  @Test
  void takesTheFileOnTheBaseItWasDecidedOnAsTheSameDecision() {
    CommitTableCommand command =
        commit("c-1", List.of(new UpdateRequirement.AssertTableUUID(state.tableUuid())), SET_OWNER);
    Decision ahead = TableDecider.commit(state, base, command, "f-1");
    String file = ahead.tableState().metadataLocation();

    Decision taken =
        TableDecider.writtenAhead(state, command.withWrittenAhead(aheadOf(state, file)), noReads)
            .orElseThrow();

    assertThat(taken.events()).isEqualTo(ahead.events());
    assertThat(taken.reply()).isEqualTo(CommandReply.table("c-1", file));
    assertThat(taken.tableState()).isEqualTo(ahead.tableState());
    assertThat(taken.tableState().holdsDocument()).isFalse();
    assertThat(taken.writeMetadata()).isFalse();
    assertThat(taken.steps()).isEmpty();
    assertThat(taken.tableRemoved()).isFalse();
  }

  @Test
  void decidesAgainWhenTheTableMovedOnSinceTheBase() {
    CommitTableCommand command = commit("c-1", List.of(), SET_OWNER);
    String file = TableDecider.commit(state, base, command, "f-1").tableState().metadataLocation();
    TableState movedOn =
        new TableState(
            state.tableUuid(),
            LOCATION + "/metadata/00003-other.metadata.json",
            state.metadataJson(),
            4,
            8);

    assertThat(
            TableDecider.writtenAhead(
                movedOn, command.withWrittenAhead(aheadOf(state, file)), noReads))
        .isEmpty();
  }

  @Test
  void decidesAgainWhenTheTableWasReplacedAtTheSameLocation() {
    CommitTableCommand command = commit("c-1", List.of(), SET_OWNER);
    String file = TableDecider.commit(state, base, command, "f-1").tableState().metadataLocation();
    TableState replaced =
        new TableState(
            UUID.randomUUID().toString(),
            state.metadataLocation(),
            state.metadataJson(),
            state.version(),
            state.sequence());

    assertThat(
            TableDecider.writtenAhead(
                replaced, command.withWrittenAhead(aheadOf(state, file)), noReads))
        .isEmpty();
  }

  @Test
  void decidesAsBeforeWhenNothingWasWrittenAheadOrTheTableIsGone() {
    CommitTableCommand command = commit("c-1", List.of(), SET_OWNER);
    String file = TableDecider.commit(state, base, command, "f-1").tableState().metadataLocation();

    assertThat(TableDecider.writtenAhead(state, command, noReads)).isEmpty();
    assertThat(
            TableDecider.writtenAhead(
                null, command.withWrittenAhead(aheadOf(state, file)), noReads))
        .isEmpty();
  }

  private CommitTableCommand.WrittenAhead aheadOf(TableState on, String file) {
    return new CommitTableCommand.WrittenAhead(on.metadataLocation(), on.tableUuid(), file);
  }

  private static CommitTableCommand commit(
      String commandId, List<UpdateRequirement> requirements, List<MetadataUpdate> updates) {
    return new CommitTableCommand(
        new CommandHeader(commandId, 1_700_000_000_000L, "alice", "api-1", null),
        "wh",
        TABLE,
        requirements,
        updates);
  }
}
