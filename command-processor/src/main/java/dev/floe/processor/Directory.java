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

  boolean tableExists(TableIdentifier identifier);
}
