package dev.floe.processor.step;

/** What a step's name stands for: a table or a view, which share one name space. */
public enum EntityKind {
  TABLE,
  VIEW
}
