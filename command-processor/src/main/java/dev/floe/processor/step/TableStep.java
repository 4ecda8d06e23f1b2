package dev.floe.processor.step;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.floe.events.Keys;
import dev.floe.events.command.CommandHeader;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The second half of a membership change, on {@code floe.steps}, keyed by the table: the
 * warehouse's directory has already claimed (or released) the name in the same Kafka transaction
 * that produced this step, and the table's own partition now applies it.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(value = CreateTableStep.class, name = "create-table"),
  @JsonSubTypes.Type(value = DropTableStep.class, name = "drop-table"),
  @JsonSubTypes.Type(value = ReleaseTableNameStep.class, name = "release-table-name"),
  @JsonSubTypes.Type(value = RegisterTableStep.class, name = "register-table"),
  @JsonSubTypes.Type(value = MoveTableOutStep.class, name = "move-table-out"),
  @JsonSubTypes.Type(value = MoveTableInStep.class, name = "move-table-in"),
  @JsonSubTypes.Type(value = CreateViewStep.class, name = "create-view"),
  @JsonSubTypes.Type(value = RegisterViewStep.class, name = "register-view"),
  @JsonSubTypes.Type(value = DropViewStep.class, name = "drop-view"),
  @JsonSubTypes.Type(value = MoveViewOutStep.class, name = "move-view-out"),
  @JsonSubTypes.Type(value = MoveViewInStep.class, name = "move-view-in"),
  @JsonSubTypes.Type(value = ReleaseViewNameStep.class, name = "release-view-name"),
  @JsonSubTypes.Type(value = IdempotencyOutcomeStep.class, name = "idempotency-outcome"),
  @JsonSubTypes.Type(value = PrepareTableStep.class, name = "prepare-table"),
  @JsonSubTypes.Type(value = TransactionVoteStep.class, name = "transaction-vote"),
  @JsonSubTypes.Type(value = ResolvePreparedStep.class, name = "resolve-prepared"),
  @JsonSubTypes.Type(value = MoveTableGrantsStep.class, name = "move-table-grants"),
  @JsonSubTypes.Type(value = CommitRelocatedStep.class, name = "commit-relocated")
})
public sealed interface TableStep
    permits CreateTableStep,
        DropTableStep,
        ReleaseTableNameStep,
        RegisterTableStep,
        MoveTableOutStep,
        MoveTableInStep,
        CreateViewStep,
        RegisterViewStep,
        DropViewStep,
        MoveViewOutStep,
        MoveViewInStep,
        ReleaseViewNameStep,
        IdempotencyOutcomeStep,
        PrepareTableStep,
        TransactionVoteStep,
        ResolvePreparedStep,
        MoveTableGrantsStep,
        CommitRelocatedStep {
  CommandHeader header();

  String warehouse();

  TableIdentifier identifier();

  default String key() {
    return Keys.table(warehouse(), identifier());
  }
}
