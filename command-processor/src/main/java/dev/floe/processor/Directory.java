package dev.floe.processor;

import dev.floe.events.state.NamespaceState;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/** What the directory decider may ask of a warehouse's directory. */
public interface Directory {
  Optional<NamespaceState> namespace(Namespace namespace);

  boolean hasChildNamespaces(Namespace namespace);

  boolean hasTables(Namespace namespace);

  boolean hasViews(Namespace namespace);

  boolean tableExists(TableIdentifier identifier);

  boolean viewExists(TableIdentifier identifier);

  /** The location of a claimed table, if it is claimed. */
  Optional<String> tableLocation(TableIdentifier identifier);

  /**
   * A live table's location, or a location awaiting purge, that equals, contains or lies inside the
   * given normalised location; empty when the location is free.
   */
  Optional<String> locationConflict(String location);

  /** True while a dropped table's files at this location wait for the purger. */
  boolean purgePending(String location);
}
