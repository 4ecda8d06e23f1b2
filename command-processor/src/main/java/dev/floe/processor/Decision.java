package dev.floe.processor;

import dev.floe.events.CommandReply;
import dev.floe.events.Rejection;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.state.TableState;
import dev.floe.processor.step.MoveGrantsStep;
import dev.floe.processor.step.RestoreStep;
import dev.floe.processor.step.Step;
import java.util.List;
import org.apache.iceberg.TableMetadata;

/**
 * What a decider returns: the events that happened, the steps to send on, the reply (or none, when
 * a later step will reply), and for table decisions the table's new state.
 *
 * @param tableState the table's new state, or null when it is unchanged or removed
 * @param tableRemoved true when the table's state must be deleted
 * @param writeMetadata true when {@code tableState}'s metadata document must be written to its
 *     location first (false for a registered or moved table, whose file already exists)
 * @param metadata {@code tableState}'s document as the decider built it, located at its metadata
 *     location and with no pending changes, so equal to a parse of that document; or null
 */
public record Decision(
    List<CatalogEvent> events,
    List<Step> steps,
    CommandReply reply,
    TableState tableState,
    boolean tableRemoved,
    boolean writeMetadata,
    TableMetadata metadata) {

  public Decision {
    events = List.copyOf(events);
    steps = List.copyOf(steps);
  }

  /** A decision that carries no parsed metadata. */
  public Decision(
      List<CatalogEvent> events,
      List<Step> steps,
      CommandReply reply,
      TableState tableState,
      boolean tableRemoved,
      boolean writeMetadata) {
    this(events, steps, reply, tableState, tableRemoved, writeMetadata, null);
  }

  /** A table's new state whose metadata file must be written. */
  public static Decision table(List<CatalogEvent> events, CommandReply reply, TableState state) {
    return new Decision(events, List.of(), reply, state, false, true);
  }

  /** A table's new state whose metadata file must be written, with that metadata parsed. */
  public static Decision table(
      List<CatalogEvent> events, CommandReply reply, TableState state, TableMetadata metadata) {
    return new Decision(events, List.of(), reply, state, false, true, metadata);
  }

  public static Decision rejected(String commandId, Rejection rejection) {
    return new Decision(
        List.of(), List.of(), CommandReply.rejected(commandId, rejection), null, false, false);
  }

  public static Decision reply(List<CatalogEvent> events, CommandReply reply) {
    return new Decision(events, List.of(), reply, null, false, false);
  }

  /** Nothing to send yet: a later step answers. */
  public static Decision pending() {
    return new Decision(List.of(), List.of(), null, null, false, false);
  }

  /**
   * A table or view installed under its new name: the rename's events, then the step that moves its
   * grants and acknowledges the rename.
   */
  public static Decision renamed(List<CatalogEvent> events, TableState state, Step grants) {
    return new Decision(events, List.of(grants), null, state, false, false);
  }

  public static Decision step(Step step) {
    return step(List.of(), step);
  }

  /** These events, then a step that a later key finishes (and answers). */
  public static Decision step(List<CatalogEvent> events, Step step) {
    return new Decision(events, List.of(step), null, null, false, false);
  }

  /**
   * A table or view installed by a restore. Under its own name it is answered here; under another
   * ({@code as}) the old name's grants follow it there, as a rename's do, and the restore is
   * answered once they have.
   */
  public static Decision restored(CatalogEvent event, TableState state, RestoreStep step) {
    CommandReply reply =
        CommandReply.restored(
            step.header().commandId(), state.metadataLocation(), state.tableUuid());
    if (step.source().equals(step.destination())) {
      return new Decision(List.of(event), List.of(), reply, state, false, false);
    }
    return renamed(
        List.of(event),
        state,
        new MoveGrantsStep(
            step.header(), step.warehouse(), step.source(), step.destination(), true, reply));
  }

  /**
   * This decision acknowledged with {@code reply} instead of its own, unless it was rejected or
   * {@code reply} is null (a step that finishes another command answers for that command).
   */
  public Decision answeredBy(CommandReply reply) {
    if (reply == null || isRejected()) {
      return this;
    }
    return new Decision(events, steps, reply, tableState, tableRemoved, writeMetadata, metadata);
  }

  public boolean isRejected() {
    return reply != null && !reply.accepted();
  }
}
