package dev.floe.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.events.AuditRecord;
import dev.floe.events.access.AccessChange;
import dev.floe.events.access.AccessEntries.Action;
import dev.floe.events.event.AccessChangedEvent;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.TableRestoredEvent;
import dev.floe.projections.events.CatalogObjectEvent;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

/**
 * {@code floe audit tail} and {@code floe events tail} print one line per record whatever the
 * caller put in a name, a principal, a property or a message: control characters come out escaped.
 */
class TailLinesTest {
  private static final String FORGED =
      "x\r\n2026-01-01T00:00:00Z  204  DELETE /v1/…  by=admin\u001b[2K";

  @Test
  void anAuditRecordIsOneLine() {
    AuditRecord record =
        new AuditRecord(
            "id",
            "2026-11-30T10:00:00Z",
            "bob" + FORGED,
            "req",
            null,
            "POST",
            "POST /v1/{prefix}/namespaces",
            "default",
            "db." + FORGED,
            400,
            "BadRequestException",
            "Invalid name: " + FORGED,
            null);

    String line = AuditLines.format(record);

    assertThat(line).doesNotContain("\r", "\n", "\u001b");
    assertThat(line)
        .contains("db.x\\r\\n2026-01-01T00:00:00Z  204  DELETE")
        .contains("by=bobx\\r\\n")
        .contains("BadRequestException: Invalid name: x\\r\\n")
        .contains("\\u001B[2K");
  }

  @Test
  void anEventIsOneLine() {
    NamespaceCreatedEvent created =
        new NamespaceCreatedEvent(
            "default", Namespace.of("db" + FORGED), Map.of("owner", FORGED), "cmd", "eve\n", 1);

    String line = line(created);

    assertThat(line).doesNotContain("\r", "\n", "\u001b");
    assertThat(line).contains("dbx\\r\\n2026-01-01T00:00:00Z").contains("by=eve\\n");
  }

  @Test
  void aRestoreNamesWhereItCameFromAndAnExpungeWhetherItPurges() {
    TableIdentifier from = TableIdentifier.of(Namespace.of("db"), "orders");
    TableIdentifier to = TableIdentifier.of(Namespace.of("db"), "orders_old");
    TableRestoredEvent restored =
        new TableRestoredEvent("default", from, to, "u-1", "file:///m.json", "cmd", "ana", 5);
    TableExpungedEvent expunged =
        new TableExpungedEvent(
            "default", from, "u-1", "file:///m.json", true, "drop", "cmd2", "floe-expiry", 5);

    assertThat(line(restored))
        .contains("x-floe.restore-table  db.orders -> db.orders_old")
        .contains("uuid=u-1");
    assertThat(line(expunged))
        .contains("x-floe.expunge-table  db.orders")
        .contains("by=floe-expiry")
        .contains("purge=true");
  }

  @Test
  void anAccessChangeShowsWhatChanged() {
    AccessChangedEvent granted =
        new AccessChangedEvent(
            "default",
            new AccessChange.Grant(
                "default", "etl", List.of("db", "sales"), "orders", Action.WRITE),
            "cmd",
            "admin",
            3);
    AccessChangedEvent issued =
        new AccessChangedEvent(
            "*", new AccessChange.IssueToken("tok-1", "etl", null, 86_400_000L), "cmd", "admin", 4);

    assertThat(line(granted))
        .matches(
            "1970-01-01T00:00:00Z  x-floe.change-access  -  by=admin  req=cmd  change=grant  .*")
        .contains("principal=etl", "namespace=db.sales", "table=orders", "action=write");
    assertThat(line(issued))
        .contains("change=issue-token", "tokenId=tok-1", "principal=etl")
        .contains("expiresAtMillis=1970-01-02T00:00:00Z")
        .doesNotContain("tokenHash");
  }

  @Test
  void typesAreTheEndpointsOrTheLogsNamesAndAnUnknownOneIsRefused() {
    assertThat(EventLines.operationTypes("update-table,floe.table.dropped,x-floe.restore-view"))
        .containsExactly("drop-table", "update-table", "x-floe.restore-view");
    assertThatThrownBy(() -> EventLines.operationTypes("update-tabel"))
        .hasMessageStartingWith("unknown event type 'update-tabel' (did you mean update-table?)");
    assertThatThrownBy(() -> EventLines.operationTypes("bogus"))
        .hasMessageStartingWith(
            "unknown event type 'bogus': the types are create-namespace, create-table,");
  }

  /** The line both tails print for an event of the log. */
  private static String line(CatalogEvent event) {
    EventEnvelope envelope = EventEnvelope.wrap(event, 0, 0);
    return EventLines.line(
        CatalogObjectEvent.json(envelope, CatalogObjectEvent.of(envelope.data()), 1));
  }
}
