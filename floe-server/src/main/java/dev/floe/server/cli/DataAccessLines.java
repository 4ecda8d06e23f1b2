package dev.floe.server.cli;

import dev.floe.events.DataAccessRecord;
import dev.floe.server.logging.ControlCharacters;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Filters and prints {@code floe.data-access} records for {@code floe audit tail --data-access}.
 */
final class DataAccessLines implements TailCommand.Lines {
  private final TailOptions options;

  DataAccessLines(TailOptions options) {
    this.options = options;
  }

  @Override
  public Optional<String> line(byte[] value) {
    DataAccessRecord record = DataAccessRecord.fromBytes(value);
    boolean matches =
        (options.table() == null || options.table().equals(record.table()))
            && (options.principal() == null || options.principal().equals(record.principal()));
    if (!matches) {
      return Optional.empty();
    }
    return Optional.of(options.json() ? new String(value, StandardCharsets.UTF_8) : format(record));
  }

  static String format(DataAccessRecord record) {
    // Tables and principals hold what callers sent: one record, one line.
    return ControlCharacters.escape(
        String.join(
            "  ",
            record.minute(),
            record.warehouse() + "." + record.table(),
            record.operation(),
            "by=" + record.principal(),
            "signed=" + record.signed(),
            "refused=" + record.refused()));
  }
}
