package dev.floe.processor.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CreateNamespaceCommand;
import dev.floe.events.command.DropTableCommand;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.state.IdempotencyRecord;
import dev.floe.events.state.StoreNames;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A table kept for its warehouse's recovery period is expunged when the period ends, by the task
 * that holds the warehouse key, and the task looks for expiries at no other time; a keyed request's
 * record is forgotten after its lifetime.
 */
class ExpiryTopologyTest extends TopologyTestSupport {
  private static final Duration RECOVERY = Duration.ofSeconds(10);

  @BeforeEach
  void keepDroppedTables() {
    driver.close();
    driver = new Driver(stateDir.resolve("kept"), RECOVERY, Instant.ofEpochMilli(ACCEPTED_AT));
  }

  @Test
  void aKeptTableIsExpungedWhenItsRecoveryPeriodEndsAndNotBefore() {
    givenNamespace();
    givenTable(createOrders());
    DropTableCommand drop = new DropTableCommand(header(), WAREHOUSE, ORDERS, false);
    driver.send(drop);
    assertThat(driver.replies()).last().satisfies(reply -> assertThat(reply.accepted()).isTrue());
    assertThat(driver.events()).extracting(Event::type).containsExactly("floe.table.dropped");
    long expiresAtMs = drop.header().timestampMillis() + RECOVERY.toMillis();

    driver.driver.advanceWallClockTime(Duration.ofMillis(expiresAtMs - 1 - ACCEPTED_AT));
    assertThat(events()).as("one millisecond before the period ends").isEmpty();

    driver.driver.advanceWallClockTime(Duration.ofMillis(1));
    assertThat(events()).containsExactly("floe.table.expunged db.orders");

    driver.driver.advanceWallClockTime(Duration.ofDays(8));
    assertThat(events()).as("nothing is kept any more").isEmpty();
  }

  @Test
  void theEarlierOfTwoKeptTablesExpiresFirst() {
    givenNamespace();
    givenTable(createOrders());
    givenTable(create(CUSTOMERS));
    DropTableCommand first = new DropTableCommand(header(), WAREHOUSE, ORDERS, false);
    driver.send(first);
    driver.driver.advanceWallClockTime(Duration.ofSeconds(3));
    DropTableCommand second = new DropTableCommand(header(), WAREHOUSE, CUSTOMERS, false);
    driver.send(second);
    driver.replies();
    events();

    long firstExpiresAtMs = first.header().timestampMillis() + RECOVERY.toMillis();
    driver.driver.advanceWallClockTime(Duration.ofMillis(firstExpiresAtMs - ACCEPTED_AT - 3_000));
    assertThat(events()).containsExactly("floe.table.expunged db.orders");

    driver.driver.advanceWallClockTime(
        Duration.ofMillis(second.header().timestampMillis() - first.header().timestampMillis()));
    assertThat(events()).containsExactly("floe.table.expunged db.customers");
  }

  @Test
  void aKeyedRequestsRecordIsPurgedWithinAMinuteAfterItsLifetime() {
    CommandHeader keyed = keyed(header(), "0190b3c2-0000-7000-9000-000000000001");
    driver.send(new CreateNamespaceCommand(keyed, WAREHOUSE, DB, Map.of()));
    assertThat(driver.singleReply().accepted()).isTrue();
    long expiresAtMs =
        keyed.timestampMillis() + CatalogTopology.DEFAULT_IDEMPOTENCY_LIFETIME.toMillis();

    driver.driver.advanceWallClockTime(Duration.ofMillis(expiresAtMs - ACCEPTED_AT));
    assertThat(idempotencyRecord(keyed)).as("at the end of its lifetime").isNotNull();

    driver.driver.advanceWallClockTime(Duration.ofMinutes(1));
    assertThat(idempotencyRecord(keyed)).as("a minute after it").isNull();
  }

  private byte[] idempotencyRecord(CommandHeader header) {
    return driver
        .driver
        .<String, byte[]>getKeyValueStore(StoreNames.IDEMPOTENCY)
        .get(IdempotencyRecord.key(header.principal(), header.idempotencyKey()));
  }

  /** The type and subject of each event the processor sent since the last call. */
  private List<String> events() {
    return driver.events.readRecordsToList().stream()
        .map(record -> EventEnvelope.fromBytes(record.value()))
        .map(envelope -> envelope.type() + " " + envelope.subject())
        .toList();
  }
}
