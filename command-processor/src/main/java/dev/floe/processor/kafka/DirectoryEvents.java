package dev.floe.processor.kafka;

import dev.floe.events.event.AccessChangedEvent;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventVisitor;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespaceEvent;
import dev.floe.events.event.NamespaceExpungedEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.events.event.NamespaceRestoredEvent;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.TableFilesPurgedEvent;
import dev.floe.events.event.TableMaintainedEvent;
import dev.floe.events.event.TablePurgeRefusedEvent;
import dev.floe.events.event.TableRegisteredEvent;
import dev.floe.events.event.TableRenamedEvent;
import dev.floe.events.event.TableRestoredEvent;
import dev.floe.events.event.ViewCreatedEvent;
import dev.floe.events.event.ViewDroppedEvent;
import dev.floe.events.event.ViewExpungedEvent;
import dev.floe.events.event.ViewRegisteredEvent;
import dev.floe.events.event.ViewRenamedEvent;
import dev.floe.events.event.ViewReplacedEvent;
import dev.floe.events.event.ViewRestoredEvent;
import dev.floe.events.state.NamespaceState;
import dev.floe.processor.step.Step;
import java.util.Optional;

/**
 * The directory's evolve function over events: namespaces, purges and expunges; a table's or view's
 * other events change its state, not the directory (its steps do, {@link
 * StoreDirectory#apply(Step)}).
 */
final class DirectoryEvents implements EventVisitor<Void> {
  private final StoreDirectory directory;
  private final long atMs;

  /** {@code atMs}: when the event was decided. */
  DirectoryEvents(StoreDirectory directory, long atMs) {
    this.directory = directory;
    this.atMs = atMs;
  }

  @Override
  public Void namespaceCreated(NamespaceCreatedEvent e) {
    evolve(e);
    return null;
  }

  @Override
  public Void namespacePropertiesUpdated(NamespacePropertiesUpdatedEvent e) {
    evolve(e);
    return null;
  }

  @Override
  public Void namespaceDropped(NamespaceDroppedEvent e) {
    directory.keepDroppedNamespace(e, atMs);
    evolve(e);
    return null;
  }

  @Override
  public Void namespaceRestored(NamespaceRestoredEvent e) {
    directory.forgetKeptNamespace(e.namespace(), e.dropCommandId());
    evolve(e);
    return null;
  }

  @Override
  public Void namespaceExpunged(NamespaceExpungedEvent e) {
    directory.forgetKeptNamespace(e.namespace(), e.dropCommandId());
    directory.reserveAreas(e.purgedAreas(), atMs);
    evolve(e);
    return null;
  }

  /** The namespace's own state, as the event says it is after it ({@link NamespaceEvent}). */
  private void evolve(NamespaceEvent e) {
    Optional<NamespaceState> before = directory.namespace(e.namespace());
    Optional<NamespaceState> after = e.stateAfter(before);
    if (after.equals(before)) {
      return; // an expunge: its drop already removed the namespace
    }
    if (after.isPresent()) {
      directory.putNamespace(e.namespace(), after.get());
    } else {
      directory.removeNamespace(e.namespace());
    }
  }

  @Override
  public Void tableCreated(TableCreatedEvent e) {
    throw notADirectoryEvent(e);
  }

  @Override
  public Void tableRegistered(TableRegisteredEvent e) {
    throw notADirectoryEvent(e);
  }

  @Override
  public Void tableCommitted(TableCommittedEvent e) {
    throw notADirectoryEvent(e);
  }

  @Override
  public Void tableDropped(TableDroppedEvent e) {
    throw notADirectoryEvent(e);
  }

  @Override
  public Void tableRenamed(TableRenamedEvent e) {
    throw notADirectoryEvent(e);
  }

  @Override
  public Void tableRestored(TableRestoredEvent e) {
    throw notADirectoryEvent(e);
  }

  @Override
  public Void tableExpunged(TableExpungedEvent e) {
    directory.expunge(e, e.purge());
    return null;
  }

  @Override
  public Void tableFilesPurged(TableFilesPurgedEvent e) {
    directory.forgetPurge(e.location());
    return null;
  }

  @Override
  public Void tablePurgeRefused(TablePurgeRefusedEvent e) {
    directory.forgetPurge(e.location());
    return null;
  }

  @Override
  public Void tableMaintained(TableMaintainedEvent e) {
    return null; // a record of work on files: the directory does not change
  }

  @Override
  public Void viewCreated(ViewCreatedEvent e) {
    throw notADirectoryEvent(e);
  }

  @Override
  public Void viewRegistered(ViewRegisteredEvent e) {
    throw notADirectoryEvent(e);
  }

  @Override
  public Void viewReplaced(ViewReplacedEvent e) {
    throw notADirectoryEvent(e);
  }

  @Override
  public Void viewDropped(ViewDroppedEvent e) {
    throw notADirectoryEvent(e);
  }

  @Override
  public Void viewRenamed(ViewRenamedEvent e) {
    throw notADirectoryEvent(e);
  }

  @Override
  public Void viewRestored(ViewRestoredEvent e) {
    throw notADirectoryEvent(e);
  }

  @Override
  public Void viewExpunged(ViewExpungedEvent e) {
    directory.expunge(e, false);
    return null;
  }

  @Override
  public Void accessChanged(AccessChangedEvent e) {
    throw notADirectoryEvent(e);
  }

  private static IllegalArgumentException notADirectoryEvent(CatalogEvent event) {
    return new IllegalArgumentException("Not a directory event: " + event.type());
  }
}
