package dev.floe.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.AuditRecord;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.TableRestoredEvent;
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

    String line = EventLines.format(EventEnvelope.wrap(created, 0, 0));

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

    assertThat(EventLines.format(EventEnvelope.wrap(restored, 0, 0)))
        .contains("floe.table.restored  db.orders_old")
        .contains("from=db.orders")
        .contains("uuid=u-1");
    assertThat(EventLines.format(EventEnvelope.wrap(expunged, 0, 0)))
        .contains("floe.table.expunged  db.orders")
        .contains("by=floe-expiry")
        .contains("purge=now");
  }
}
