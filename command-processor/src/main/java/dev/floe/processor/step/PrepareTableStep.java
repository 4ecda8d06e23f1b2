package dev.floe.processor.step;

import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import java.util.List;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The coordinator asks one table of a multi-table transaction to check its requirements, write its
 * next metadata file and hold the result, without applying it, until the decision.
 */
public record PrepareTableStep(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    List<UpdateRequirement> requirements,
    List<MetadataUpdate> updates)
    implements Step {
  public PrepareTableStep {
    requirements = requirements == null ? List.of() : List.copyOf(requirements);
    updates = updates == null ? List.of() : List.copyOf(updates);
  }

  /** The same change as a single-table commit, to decide it with the same rules. */
  public CommitTableCommand asCommit() {
    return new CommitTableCommand(header, warehouse, identifier, requirements, updates);
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.prepareTable(this);
  }
}
