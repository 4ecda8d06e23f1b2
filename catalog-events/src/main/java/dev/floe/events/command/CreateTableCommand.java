package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.Schema;
import org.apache.iceberg.UnboundPartitionSpec;
import org.apache.iceberg.UnboundSortOrder;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Create a table. Decided first on the warehouse key (the name is claimed in its namespace), then
 * on the table key (the metadata is written and stored).
 *
 * @param warehouseRoot the storage root the API expected the table under; the processor places the
 *     table under the root the location authority gives it on the warehouse key, which is the same
 *     unless the namespace's storage profile changed meanwhile
 * @param location the location the client asked for, or null
 * @param stageCreate only return the metadata the table would have: claim nothing, write nothing
 */
public record CreateTableCommand(
    CommandHeader header,
    String warehouse,
    String warehouseRoot,
    TableIdentifier identifier,
    String location,
    Schema schema,
    UnboundPartitionSpec spec,
    UnboundSortOrder writeOrder,
    Map<String, String> properties,
    boolean stageCreate)
    implements CatalogCommand {
  public CreateTableCommand {
    CatalogCommand.requireHeader(header, warehouse);
    Objects.requireNonNull(warehouseRoot, "warehouseRoot");
    Objects.requireNonNull(identifier, "identifier");
    Objects.requireNonNull(schema, "schema");
    properties = properties == null ? Map.of() : Map.copyOf(properties);
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }

  public String tableKey() {
    return Keys.table(warehouse, identifier);
  }
}
