package dev.floe.processor.step;

import dev.floe.events.CommandReply;
import dev.floe.events.command.CommandHeader;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The final answer of a keyed multi-step command (create, drop, rename, register), sent back to the
 * partition where its idempotency record lives (the warehouse key), which keeps it for retries and
 * answers the retries that waited.
 */
public record IdempotencyOutcomeStep(
    CommandHeader header, String warehouse, String originKey, CommandReply reply) implements Step {
  public IdempotencyOutcomeStep {
    Objects.requireNonNull(originKey, "originKey");
    Objects.requireNonNull(reply, "reply");
  }

  @Override
  public TableIdentifier identifier() {
    return null;
  }

  @Override
  public String key() {
    return originKey;
  }

  @Override
  public boolean reportsOutcome() {
    return true;
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.idempotencyOutcome(this);
  }
}
