package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.Objects;

/** The purger removed a dropped table's files: forget the pending purge of that location. */
public record CompletePurgeCommand(CommandHeader header, String warehouse, String location)
    implements CatalogCommand {
  public CompletePurgeCommand {
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(warehouse, "warehouse");
    Objects.requireNonNull(location, "location");
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
