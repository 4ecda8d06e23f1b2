package dev.floe.processor.step;

import dev.floe.events.command.CommandHeader;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Remove a view whose name the directory has already released.
 *
 * @param expiresAtMs as for {@link DropTableStep#expiresAtMs}
 */
public record DropViewStep(
    CommandHeader header, String warehouse, TableIdentifier identifier, long expiresAtMs)
    implements Step {

  /** A drop without a recovery period. */
  public DropViewStep(CommandHeader header, String warehouse, TableIdentifier identifier) {
    this(header, warehouse, identifier, 0);
  }

  /** True when the directory keeps the dropped view until {@link #expiresAtMs}. */
  public boolean recoverable() {
    return expiresAtMs > 0;
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.dropView(this);
  }
}
