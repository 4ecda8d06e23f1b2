package dev.floe.processor.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.CommandReply;
import dev.floe.events.Keys;
import dev.floe.events.RejectionCode;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.command.CommitTransactionCommand;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.LocalFileIO;
import dev.floe.processor.step.PrepareTableStep;
import dev.floe.processor.step.ResolvePreparedStep;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

/** Multi-table transactions through the processor's topology: all tables or none. */
class TransactionTopologyTest extends TopologyTestSupport {
  @Test
  void transactionCommitsEveryTableAndWritesTheirEventsTogether() {
    givenNamespace();
    CommandReply orders = givenTable(createOrders());
    CommandReply customers = givenTable(create(CUSTOMERS));
    CommitTransactionCommand transaction = batchOnBoth(uuidOf(orders), uuidOf(customers));

    driver.send(transaction);

    CommandReply reply = driver.singleReply();
    assertThat(reply.accepted()).isTrue();
    assertThat(reply.commandId()).isEqualTo(transaction.header().commandId());
    List<Event> events = driver.events();
    assertThat(events)
        .extracting(Event::type)
        .containsExactly("floe.table.committed", "floe.table.committed");
    assertThat(events)
        .extracting(Event::key)
        .containsExactly(Keys.table(WAREHOUSE, ORDERS), Keys.table(WAREHOUSE, CUSTOMERS));
    assertThat(events)
        .extracting(event -> event.envelope().id())
        .containsExactly(
            transaction.header().commandId() + ":0", transaction.header().commandId() + ":1");
    for (TableIdentifier table : List.of(ORDERS, CUSTOMERS)) {
      TableState state = driver.table(table);
      assertThat(state.sequence()).isEqualTo(2);
      assertThat(TableMetadataParser.fromJson(state.metadataJson()).properties())
          .containsEntry("batch", "1");
      assertThat(LocalFileIO.toPath(state.metadataLocation())).exists();
      assertThat(driver.prepared(table)).isFalse();
    }
  }

  @Test
  void transactionWithOneFailedRequirementChangesNoTable() throws IOException {
    givenNamespace();
    CommandReply orders = givenTable(createOrders());
    CommandReply customers = givenTable(create(CUSTOMERS));
    CommitTransactionCommand transaction =
        batchOnBoth(uuidOf(orders), "00000000-0000-0000-0000-000000000000");

    driver.send(transaction);

    CommandReply reply = driver.singleReply();
    assertThat(reply.rejection().code()).isEqualTo(RejectionCode.REQUIREMENT_FAILED);
    assertThat(reply.rejection().message())
        .startsWith("Table db.customers: Requirement failed: UUID does not match");
    assertThat(driver.events()).isEmpty();
    assertThat(driver.table(ORDERS).metadataLocation()).isEqualTo(orders.metadataLocation());
    assertThat(driver.table(CUSTOMERS).metadataLocation()).isEqualTo(customers.metadataLocation());
    assertThat(driver.prepared(ORDERS)).isFalse();
    try (var files = Files.list(LocalFileIO.toPath(orders.metadataLocation()).getParent())) {
      assertThat(files.toList())
          .as("the metadata file orders prepared is deleted with the abort")
          .containsExactly(LocalFileIO.toPath(orders.metadataLocation()));
    }
  }

  @Test
  void transactionOnAMissingTableIsRefusedBeforeAnyTableIsPrepared() {
    givenNamespace();
    CommandReply orders = givenTable(createOrders());

    driver.send(
        new CommitTransactionCommand(
            header(),
            WAREHOUSE,
            List.of(setBatch(ORDERS, uuidOf(orders), "1"), setBatch(CUSTOMERS, null, "1"))));

    assertThat(driver.singleReply().rejection().code()).isEqualTo(RejectionCode.TABLE_NOT_FOUND);
    assertThat(driver.stepKeys()).isEmpty();
    assertThat(driver.events()).isEmpty();
  }

  /**
   * A commit that arrives while its table is prepared waits, then is decided on top of the
   * transaction's result. The prepare is sent by hand here, so no coordinator expects its vote.
   */
  @Test
  void commitToAPreparedTableWaitsForTheDecisionAndBuildsOnIt() {
    givenNamespace();
    CommandReply orders = givenTable(createOrders());
    CommandHeader transaction = header();
    driver.sendStep(
        new PrepareTableStep(
            transaction,
            WAREHOUSE,
            ORDERS,
            List.of(new UpdateRequirement.AssertTableUUID(uuidOf(orders))),
            List.of(new MetadataUpdate.SetProperties(Map.of("batch", "1")))));
    assertThat(driver.prepared(ORDERS)).isTrue();
    driver.stepKeys();
    CommitTableCommand commit =
        new CommitTableCommand(
            header(),
            WAREHOUSE,
            ORDERS,
            List.of(),
            List.of(new MetadataUpdate.SetProperties(Map.of("after", "yes"))));

    driver.send(commit);
    assertThat(driver.replies()).as("the commit waits for the transaction").isEmpty();
    assertThat(driver.table(ORDERS).metadataLocation()).isEqualTo(orders.metadataLocation());

    driver.sendStep(new ResolvePreparedStep(transaction, WAREHOUSE, ORDERS, true));

    CommandReply reply = driver.singleReply();
    assertThat(reply.commandId()).isEqualTo(commit.header().commandId());
    assertThat(reply.accepted()).isTrue();
    TableCommittedEvent committed = (TableCommittedEvent) driver.events().get(0).envelope().data();
    assertThat(committed.sequence()).isEqualTo(3);
    assertThat(committed.previousMetadataLocation()).contains(transaction.commandId());
    assertThat(TableMetadataParser.fromJson(driver.table(ORDERS).metadataJson()).properties())
        .containsEntry("batch", "1")
        .containsEntry("after", "yes");
    assertThat(driver.prepared(ORDERS)).isFalse();
  }

  /** One transaction setting {@code batch=1} on both tables, each required to have its uuid. */
  private CommitTransactionCommand batchOnBoth(String ordersUuid, String customersUuid) {
    return new CommitTransactionCommand(
        header(),
        WAREHOUSE,
        List.of(setBatch(ORDERS, ordersUuid, "1"), setBatch(CUSTOMERS, customersUuid, "1")));
  }
}
