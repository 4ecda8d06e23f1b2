package dev.floe.events.command;

import dev.floe.events.Keys;
import dev.floe.events.access.AccessChange;
import java.util.Objects;

/**
 * A change to principals, tokens, roles, grants or visibility. Every one is decided on one key
 * ({@link Keys#ACCESS}), so the access-control state has a single writer like everything else.
 */
public record ChangeAccessCommand(CommandHeader header, AccessChange change)
    implements CatalogCommand {
  public ChangeAccessCommand {
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(change, "change");
  }

  @Override
  public String warehouse() {
    return change.warehouse();
  }

  @Override
  public String key() {
    return Keys.ACCESS;
  }
}
