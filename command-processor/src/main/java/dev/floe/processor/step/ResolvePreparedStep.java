package dev.floe.processor.step;

import dev.floe.events.command.CommandHeader;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The coordinator's decision for one prepared table: install the prepared state ({@code commit}) or
 * drop it. Either way the table is released and the changes that waited for it are decided.
 */
public record ResolvePreparedStep(
    CommandHeader header, String warehouse, TableIdentifier identifier, boolean commit)
    implements Step {
  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.resolvePrepared(this);
  }
}
