package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.List;

/**
 * A multi-table transaction ({@code POST /v1/{prefix}/transactions/commit}): every change applies
 * or none does. Coordinated on the warehouse key, which prepares each table on its own key and then
 * commits or aborts them all.
 */
public record CommitTransactionCommand(
    CommandHeader header, String warehouse, List<TableChange> changes) implements CatalogCommand {
  public CommitTransactionCommand {
    CatalogCommand.requireHeader(header, warehouse);
    changes = changes == null ? List.of() : List.copyOf(changes);
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
