package dev.floe.events.command;

import dev.floe.events.Keys;

/**
 * A commit to a table ({@link CommitTableCommand}) or a view ({@link CommitViewCommand}) that moves
 * where its files go ({@code set-location}, or a write-path property). Decided first on the
 * warehouse key, whose directory checks the new locations against the storage root and every other
 * entity's locations and claims them, then on the entity's key like any commit.
 */
public record RelocateCommand(CommandHeader header, String warehouse, CatalogCommand change)
    implements CatalogCommand {
  public RelocateCommand {
    CatalogCommand.requireHeader(header, warehouse);
    if (!(change instanceof CommitTableCommand) && !(change instanceof CommitViewCommand)) {
      throw new IllegalArgumentException("Only a table or view commit can move its location");
    }
    if (!change.warehouse().equals(warehouse)) {
      throw new IllegalArgumentException("The change must be in the same warehouse");
    }
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
