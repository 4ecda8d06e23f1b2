package dev.floe.processor.step;

import dev.floe.events.command.CatalogCommand;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.command.CommitViewCommand;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The second half of a commit that moves a table's or view's files: the directory has checked the
 * new locations against the storage root and every other entity's, and holds them for this entity
 * from now on; the entity's key decides the commit as any other, and its files may go anywhere
 * inside {@code held}.
 *
 * @param change the client's commit ({@link CommitTableCommand} or {@link CommitViewCommand})
 * @param held every location the entity holds, the new ones included
 */
public record CommitRelocatedStep(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    CatalogCommand change,
    List<String> held)
    implements Step {
  public CommitRelocatedStep {
    Objects.requireNonNull(change, "change");
    held = List.copyOf(held);
  }

  /** True for a view's commit, false for a table's. */
  public boolean view() {
    return change instanceof CommitViewCommand;
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.commitRelocated(this);
  }
}
