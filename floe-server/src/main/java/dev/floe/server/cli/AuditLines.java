package dev.floe.server.cli;

import dev.floe.events.AuditRecord;
import dev.floe.server.logging.ControlCharacters;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Filters and prints {@code floe.audit} records for {@code floe audit tail}. */
final class AuditLines implements TailCommand.Lines {
  private final TailOptions options;

  AuditLines(TailOptions options) {
    this.options = options;
  }

  @Override
  public Optional<String> line(byte[] value) {
    AuditRecord record = AuditRecord.fromBytes(value);
    boolean matches =
        (options.table() == null || options.table().equals(record.target()))
            && (options.principal() == null || options.principal().equals(record.principal()))
            && options.statusMatches(record.status());
    if (!matches) {
      return Optional.empty();
    }
    return Optional.of(options.json() ? new String(value, StandardCharsets.UTF_8) : format(record));
  }

  static String format(AuditRecord record) {
    List<String> fields = new ArrayList<>();
    fields.add(record.time());
    fields.add(String.valueOf(record.status()));
    // The route template normally starts with its method already: "POST /v1/{prefix}/...".
    fields.add(
        record.route().startsWith(record.method() + " ")
            ? record.route()
            : record.method() + " " + record.route());
    fields.add(Objects.requireNonNullElse(record.target(), "-"));
    fields.add("by=" + record.principal());
    if (record.requestId() != null) {
      fields.add("req=" + record.requestId());
    }
    if (record.errorType() != null || record.message() != null) {
      String message = Objects.requireNonNullElse(record.message(), "");
      fields.add(Objects.requireNonNullElse(record.errorType(), "Error") + ": " + message);
    }
    // Targets, principals and messages hold what callers sent: one record, one line.
    return ControlCharacters.escape(String.join("  ", fields));
  }
}
