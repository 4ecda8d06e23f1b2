package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.Objects;

/**
 * The purger is done with a dropped table's location: it removed the files, or it refused to (the
 * location authority's check at deletion time failed) and removed nothing. Either way the pending
 * purge of that location is forgotten; a refusal is recorded as {@code floe.table.purge-refused}.
 *
 * @param refusal why nothing was deleted, or null when the files were removed
 */
public record CompletePurgeCommand(
    CommandHeader header, String warehouse, String location, String refusal)
    implements CatalogCommand {
  public CompletePurgeCommand {
    CatalogCommand.requireHeader(header, warehouse);
    Objects.requireNonNull(location, "location");
  }

  /** The files were removed. */
  public CompletePurgeCommand(CommandHeader header, String warehouse, String location) {
    this(header, warehouse, location, null);
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
