package dev.floe.processor.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.CommandReply;
import dev.floe.events.FloeJson;
import dev.floe.events.RejectionCode;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.command.RenameTableCommand;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.LocalFileIO;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

/**
 * What the processor stores for a table: a pointer to its metadata file that keeps one size, a
 * stored value of another format, and a file that cannot be read.
 */
class TableStateTopologyTest extends TopologyTestSupport {
  /**
   * A keyed commit's reply (on {@code floe.replies}) and its idempotency record (a changelogged
   * store) name the metadata file and never copy the document: they keep one size while the table's
   * metadata grows by 10 kB with every commit, and a retry is answered with the same file.
   */
  @Test
  void replyAndIdempotencyRecordStayOneSizeWhileTheTableGrows() {
    givenNamespace();
    givenTable(createOrders());
    String value = "v".repeat(10_000);
    Set<Integer> replySizes = new HashSet<>();
    Set<Integer> recordSizes = new HashSet<>();
    CommandHeader last = null;
    CommandReply lastReply = null;
    for (int i = 0; i < 40; i++) {
      last = keyed(header(), String.format("0190b3c2-0000-7000-9000-%012d", i));
      driver.send(
          new CommitTableCommand(
              last,
              WAREHOUSE,
              ORDERS,
              List.of(),
              List.of(new MetadataUpdate.SetProperties(Map.of("p" + i, value)))));
      byte[] reply = driver.singleRawReply();
      lastReply = FloeJson.fromBytes(reply, CommandReply.class);
      assertThat(lastReply.accepted()).isTrue();
      replySizes.add(reply.length);
      recordSizes.add(driver.idempotencyRecord(last).length);
      driver.events();
    }

    assertThat(driver.table(ORDERS).metadataJson().length()).isGreaterThan(400_000);
    assertThat(replySizes).hasSize(1).allSatisfy(size -> assertThat(size).isLessThan(512));
    assertThat(recordSizes).hasSize(1).allSatisfy(size -> assertThat(size).isLessThan(1024));
    assertThat(files.read(lastReply.metadataLocation()).properties().containsKey("p39")).isTrue();

    CommandHeader retry = keyed(header(), last.idempotencyKey());
    driver.send(new CommitTableCommand(retry, WAREHOUSE, ORDERS, List.of(), List.of()));

    assertThat(driver.singleReply())
        .isEqualTo(CommandReply.table(retry.commandId(), lastReply.metadataLocation()));
    assertThat(driver.events()).isEmpty();
  }

  @Test
  void aTablesStoredValueKeepsOneSizeWhileItsMetadataGrows() throws IOException {
    givenNamespace();
    givenTable(createOrders());
    int stored = driver.rawTable(ORDERS).length;
    long firstFile = Files.size(LocalFileIO.toPath(driver.table(ORDERS).metadataLocation()));

    for (int i = 0; i < 10; i++) {
      driver.send(
          new CommitTableCommand(
              header(),
              WAREHOUSE,
              ORDERS,
              List.of(),
              List.of(new MetadataUpdate.SetProperties(Map.of("p" + i, "x".repeat(2_000))))));
      assertThat(driver.singleReply().accepted()).isTrue();
    }

    TableState state = driver.table(ORDERS);
    assertThat(state.sequence()).isEqualTo(11);
    assertThat(Files.size(LocalFileIO.toPath(state.metadataLocation())))
        .isGreaterThan(firstFile + 20_000);
    assertThat(driver.rawTable(ORDERS))
        .as("the store keeps a pointer to the file, not the document")
        .hasSize(stored);
    assertThat(stored).isLessThan(300);
    assertThat(TableMetadataParser.fromJson(state.metadataJson()).properties()).containsKey("p9");
  }

  /**
   * A stored value of another format than the pointer's (here format byte 1, the document inline)
   * refuses a commit with an error that names the format, and the value stays as it was.
   */
  @Test
  void aValueOfAnotherFormatRefusesACommitNamingTheFormat() {
    givenNamespace();
    givenTable(createOrders());
    TableState before = driver.table(ORDERS);
    byte[] inline = before.toBytes();
    inline[0] = 1;
    driver.putRawTable(ORDERS, inline);

    driver.send(
        new CommitTableCommand(
            header(),
            WAREHOUSE,
            ORDERS,
            List.of(new UpdateRequirement.AssertTableUUID(before.tableUuid())),
            List.of(new MetadataUpdate.SetProperties(Map.of("owner", "carol")))));

    CommandReply reply = driver.singleReply();
    assertThat(reply.accepted()).isFalse();
    assertThat(reply.rejection().code()).isEqualTo(RejectionCode.INTERNAL_ERROR);
    assertThat(reply.rejection().message()).contains("table state format 1");
    assertThat(driver.rawTable(ORDERS)).isEqualTo(inline);
  }

  @Test
  void aRenameMovesThePointerWithoutReadingTheMetadataFile() {
    givenNamespace();
    CommandReply created = givenTable(createOrders());
    TableIdentifier sales = TableIdentifier.of(DB, "sales");
    files.failingReads = true;

    driver.send(new RenameTableCommand(header(), WAREHOUSE, ORDERS, sales));

    assertThat(driver.singleReply().accepted()).isTrue();
    assertThat(driver.events()).extracting(Event::type).containsExactly("floe.table.renamed");
    assertThat(driver.table(ORDERS)).isNull();
    TableState moved = driver.table(sales);
    assertThat(moved.metadataLocation()).isEqualTo(created.metadataLocation());
    assertThat(moved.sequence()).isEqualTo(2);
    files.failingReads = false;
    assertThat(TableMetadataParser.fromJson(moved.metadataJson()).uuid())
        .isEqualTo(uuidOf(created));
  }

  @Test
  void aCommitWhoseMetadataFileCannotBeReadIsRefusedAndChangesNothing() {
    givenNamespace();
    CommandReply created = givenTable(createOrders());
    TableIdentifier sales = TableIdentifier.of(DB, "sales");
    driver.send(new RenameTableCommand(header(), WAREHOUSE, ORDERS, sales));
    assertThat(driver.singleReply().accepted()).isTrue();
    driver.events();
    // The renamed table's parsed metadata is not cached under its new key: the commit needs the
    // file.
    files.failingReads = true;

    driver.send(
        new CommitTableCommand(
            header(),
            WAREHOUSE,
            sales,
            List.of(),
            List.of(new MetadataUpdate.SetProperties(Map.of("owner", "dave")))));

    CommandReply refused = driver.singleReply();
    assertThat(refused.rejection().code()).isEqualTo(RejectionCode.STORAGE_FAILED);
    assertThat(refused.rejection().message()).contains(created.metadataLocation());
    assertThat(driver.events()).isEmpty();
    assertThat(driver.table(sales).metadataLocation()).isEqualTo(created.metadataLocation());
  }
}
