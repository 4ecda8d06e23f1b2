package dev.floe.events.event;

/**
 * One function over every event type, by type: what a fold of the log ({@code floe.events}) or a
 * view of it implements, so that a new event type does not compile until each of them says what it
 * does with it. An event is given to it by {@link CatalogEvent#accept}.
 *
 * @param <R> what the function gives for an event
 */
public interface EventVisitor<R> {
  R namespaceCreated(NamespaceCreatedEvent event);

  R namespacePropertiesUpdated(NamespacePropertiesUpdatedEvent event);

  R namespaceDropped(NamespaceDroppedEvent event);

  R namespaceRestored(NamespaceRestoredEvent event);

  R namespaceExpunged(NamespaceExpungedEvent event);

  R tableCreated(TableCreatedEvent event);

  R tableRegistered(TableRegisteredEvent event);

  R tableCommitted(TableCommittedEvent event);

  R tableDropped(TableDroppedEvent event);

  R tableRenamed(TableRenamedEvent event);

  R tableRestored(TableRestoredEvent event);

  R tableExpunged(TableExpungedEvent event);

  R tableFilesPurged(TableFilesPurgedEvent event);

  R tablePurgeRefused(TablePurgeRefusedEvent event);

  R tableMaintained(TableMaintainedEvent event);

  R viewCreated(ViewCreatedEvent event);

  R viewRegistered(ViewRegisteredEvent event);

  R viewReplaced(ViewReplacedEvent event);

  R viewDropped(ViewDroppedEvent event);

  R viewRenamed(ViewRenamedEvent event);

  R viewRestored(ViewRestoredEvent event);

  R viewExpunged(ViewExpungedEvent event);

  R accessChanged(AccessChangedEvent event);
}
