package dev.floe.processor;

import dev.floe.events.command.CreateTableCommand;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.location.Location;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;

/**
 * A new table's first metadata, derived from the create command alone: its UUID and location come
 * from the command id, so reprocessing the command after a crash yields the same table.
 */
record NewTable(TableMetadata metadata, String metadataLocation) {

  /**
   * @param area the storage area the table is placed in (its namespace's, in the storage root the
   *     location authority chose), as spelled
   */
  static NewTable build(CreateTableCommand c, String area) {
    String uuid =
        UUID.nameUUIDFromBytes(
                ("floe-table:" + c.header().commandId()).getBytes(StandardCharsets.UTF_8))
            .toString();
    // The client's spelling of its location is kept: clients compare what they asked for with what
    // they get (Iceberg's CatalogTests); the location authority compares canonical forms.
    String location = c.location() != null ? c.location() : defaultLocation(c, area, uuid);
    Schema schema = c.schema();
    PartitionSpec spec = c.spec() == null ? PartitionSpec.unpartitioned() : c.spec().bind(schema);
    SortOrder order = c.writeOrder() == null ? SortOrder.unsorted() : c.writeOrder().bind(schema);
    TableMetadata fresh =
        TableMetadata.newTableMetadata(schema, spec, order, location, c.properties());
    TableMetadata metadata = TableMetadata.buildFrom(fresh).assignUUID(uuid).build();
    return new NewTable(metadata, metadataLocation(metadata, 0, c.header().commandId()));
  }

  /** {@code <area>/<table>-<uuid>}: a recreated table never reuses a dropped one's files. */
  private static String defaultLocation(CreateTableCommand c, String area, String uuid) {
    return LocationAuthority.defaultLocation(Location.parse(area), c.identifier().name(), uuid);
  }

  /** {@code <metadata dir>/<version>-<command id>.metadata.json}, named by the command. */
  static String metadataLocation(TableMetadata metadata, int version, String commandId) {
    String dir = metadata.properties().get(TableProperties.WRITE_METADATA_LOCATION);
    String base = dir != null ? trimSlash(dir) : metadata.location() + "/metadata";
    return String.format("%s/%05d-%s.metadata.json", base, version, commandId);
  }

  private static String trimSlash(String location) {
    return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
  }
}
