package dev.floe.processor.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.CommandReply;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.state.TableState;
import dev.floe.processor.Decision;
import dev.floe.processor.TableDecider;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.UpdateRequirement;
import org.junit.jupiter.api.Test;

/**
 * A commit whose metadata file the API wrote ahead (as {@code WriteAhead} does): the processor
 * takes the file without writing or reading one when the table is still at the base it was decided
 * on, and decides again, writing its own file, when the table moved on.
 */
class WrittenAheadTopologyTest extends TopologyTestSupport {
  @Test
  void aFileWrittenAheadOnTheCurrentBaseIsTakenWithoutAnyWriteOrRead() {
    givenNamespace();
    givenTable(createOrders());
    TableState base = driver.table(ORDERS);
    CommitTableCommand command =
        commit(
            List.of(new UpdateRequirement.AssertTableUUID(base.tableUuid())),
            Map.of("owner", "carol"));
    String file = writeAhead(base, command);
    // Storage refuses every write and read from here: taking the file needs neither.
    files.failing = true;
    files.failingReads = true;

    driver.send(command.withWrittenAhead(ahead(base, file)));

    assertThat(driver.singleReply())
        .isEqualTo(CommandReply.table(command.header().commandId(), file));
    List<Event> events = driver.events();
    assertThat(events).extracting(Event::type).containsExactly("floe.table.committed");
    assertThat(events.get(0).json().path("data").path("metadataLocation").asText()).isEqualTo(file);
    assertThat(events.get(0).json().path("data").path("previousMetadataLocation").asText())
        .isEqualTo(base.metadataLocation());
    TableState taken = driver.table(ORDERS);
    assertThat(taken.metadataLocation()).isEqualTo(file);
    assertThat(taken.version()).isEqualTo(base.version() + 1);
    assertThat(taken.sequence()).isEqualTo(base.sequence() + 1);

    // The table's next commit, decided here as before, builds on the file taken.
    files.failing = false;
    files.failingReads = false;
    driver.send(commit(List.of(), Map.of("steward", "dave")));
    CommandReply next = driver.singleReply();
    assertThat(next.accepted()).isTrue();
    TableMetadata after = files.read(next.metadataLocation());
    assertThat(after.properties()).containsEntry("owner", "carol").containsEntry("steward", "dave");
    assertThat(after.previousFiles()).extracting(e -> e.file()).contains(file);
  }

  @Test
  void aFileWrittenAheadOnAnOlderBaseIsDecidedAgainWithTheLatestChangeKept() {
    givenNamespace();
    givenTable(createOrders());
    TableState base = driver.table(ORDERS);
    CommitTableCommand command = commit(List.of(), Map.of("owner", "carol"));
    String file = writeAhead(base, command);
    String aheadDocument = files.document(file);
    driver.send(commit(List.of(), Map.of("steward", "dave")));
    assertThat(driver.singleReply().accepted()).isTrue();
    driver.events();

    driver.send(command.withWrittenAhead(ahead(base, file)));

    CommandReply reply = driver.singleReply();
    assertThat(reply.accepted()).isTrue();
    assertThat(reply.metadataLocation()).isNotEqualTo(file).contains(command.header().commandId());
    assertThat(files.read(reply.metadataLocation()).properties())
        .containsEntry("owner", "carol")
        .containsEntry("steward", "dave");
    assertThat(driver.table(ORDERS).metadataLocation()).isEqualTo(reply.metadataLocation());
    // The file written ahead is left as it was (the API that wrote it deletes it).
    assertThat(read(Path.of(URI.create(file)))).isEqualTo(aheadDocument);
  }

  private CommitTableCommand commit(
      List<UpdateRequirement> requirements, Map<String, String> properties) {
    return new CommitTableCommand(
        header(),
        WAREHOUSE,
        ORDERS,
        requirements,
        List.of(new MetadataUpdate.SetProperties(properties)));
  }

  /** What the API does: decides on the state it read, names the file itself, writes it. */
  private String writeAhead(TableState base, CommitTableCommand command) {
    Decision decision =
        TableDecider.commit(
            base,
            TableMetadataParser.fromJson(base.metadataLocation(), base.metadataJson()),
            command,
            "0190b3c2-0000-7000-a000-000000000001");
    TableState next = decision.tableState();
    files.writeJson(next.metadataLocation(), next.metadataJson());
    return next.metadataLocation();
  }

  private static CommitTableCommand.WrittenAhead ahead(TableState base, String file) {
    return new CommitTableCommand.WrittenAhead(base.metadataLocation(), base.tableUuid(), file);
  }
}
