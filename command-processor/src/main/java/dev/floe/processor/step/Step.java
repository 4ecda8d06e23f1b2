package dev.floe.processor.step;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.annotation.JsonTypeIdResolver;
import dev.floe.events.Keys;
import dev.floe.events.command.CommandHeader;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A record the processor sends itself on {@code floe.steps}, to be decided on another key inside
 * the Kafka transaction that produced it: the table or view half of a membership change, a name
 * released, a grant moved, a multi-table transaction's prepare, vote or resolution, or an
 * idempotency outcome. Its {@code type} is named by {@link StepTypes}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.CUSTOM, property = "type", visible = true)
@JsonTypeIdResolver(StepTypes.class)
public sealed interface Step
    permits CreateTableStep,
        DropTableStep,
        RegisterTableStep,
        CreateViewStep,
        RegisterViewStep,
        DropViewStep,
        KindedStep,
        IdempotencyOutcomeStep,
        PrepareTableStep,
        TransactionVoteStep,
        ResolvePreparedStep,
        MoveGrantsStep,
        CommitRelocatedStep {
  CommandHeader header();

  String warehouse();

  TableIdentifier identifier();

  default String key() {
    return Keys.table(warehouse(), identifier());
  }

  /** Whether this step is itself the report of a keyed command's outcome. */
  default boolean reportsOutcome() {
    return false;
  }

  /** What {@code visitor} gives for this step: its method for this step's type. */
  <R> R accept(StepVisitor<R> visitor);
}
