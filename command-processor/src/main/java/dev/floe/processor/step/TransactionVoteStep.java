package dev.floe.processor.step;

import dev.floe.events.Keys;
import dev.floe.events.Rejection;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.event.TableCommittedEvent;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A prepared table's answer to the coordinator, on the warehouse key: yes (with the event its
 * commit will record, or none when the change changes nothing) or no (with why).
 *
 * @param rejection why the table cannot apply its change, or null for yes
 * @param event the commit event to record if the transaction commits; null for no, or a no-op
 */
public record TransactionVoteStep(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    Rejection rejection,
    TableCommittedEvent event)
    implements Step {

  public boolean yes() {
    return rejection == null;
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }

  @Override
  public <R> R accept(StepVisitor<R> visitor) {
    return visitor.transactionVote(this);
  }
}
