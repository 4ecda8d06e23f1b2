package dev.floe.processor.step;

/** A step that does the same for a table as for a view, and says which one it is about. */
public sealed interface KindedStep extends Step
    permits MoveOutStep, MoveInStep, ReleaseNameStep, RetainDeletedStep, RestoreStep {
  EntityKind kind();
}
