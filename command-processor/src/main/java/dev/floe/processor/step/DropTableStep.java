package dev.floe.processor.step;

import dev.floe.events.command.CommandHeader;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Remove a table whose name the directory has already released.
 *
 * @param expiresAtMs when the directory keeps the dropped table for a recovery period: when that
 *     ends, and the table's last state goes back to the directory; 0 when it is gone at once
 */
public record DropTableStep(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    boolean purgeRequested,
    long expiresAtMs)
    implements Step {

  /** A drop without a recovery period. */
  public DropTableStep(
      CommandHeader header, String warehouse, TableIdentifier identifier, boolean purgeRequested) {
    this(header, warehouse, identifier, purgeRequested, 0);
  }

  /** True when the directory keeps the dropped table until {@link #expiresAtMs}. */
  public boolean recoverable() {
    return expiresAtMs > 0;
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.dropTable(this);
  }
}
