package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.DataFileEntries;
import dev.floe.server.it.support.RestClients;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole path through real components: Iceberg's Java client → Floe's HTTP API → the embedded
 * Kafka broker → the exactly-once processor → RocksDB and the warehouse. Everything it checks must
 * still hold after the server is SIGKILLed and restarted on the same data directory.
 */
class RestCatalogLifecycleIT {
  private static final Namespace DB = Namespace.of("db");
  private static final TableIdentifier EVENTS = TableIdentifier.of(DB, "events");
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()));

  @TempDir Path dataDir;

  @Test
  void everyAcknowledgedChangeSurvivesSigkillAndRestart() throws Exception {
    try (FloeProcess floe = new FloeProcess(dataDir).start()) {
      try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
        catalog.createNamespace(DB, new HashMap<>(Map.of("owner", "analytics")));
        PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).identity("category").build();
        Table table = catalog.createTable(EVENTS, SCHEMA, spec);
        assertThat(table.location())
            .startsWith(dataDir.resolve("warehouse").toUri().toString().replaceAll("/$", ""));

        table.newFastAppend().appendFile(DataFileEntries.of(table, "a")).commit();
        table.updateSchema().addColumn("note", Types.StringType.get()).commit();
      }

      floe.kill();
      floe.start();

      long snapshotId;
      try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
        assertThat(catalog.listNamespaces()).containsExactly(DB);
        assertThat(catalog.loadNamespaceMetadata(DB)).containsEntry("owner", "analytics");
        assertThat(catalog.listTables(DB)).containsExactly(EVENTS);
        Table table = catalog.loadTable(EVENTS);
        assertThat(table.schema().findField("note")).isNotNull();
        assertThat(table.spec().fields()).hasSize(1);
        assertThat(table.snapshots()).hasSize(1);
        assertThat(table.currentSnapshot().summary()).containsEntry("added-data-files", "1");
        snapshotId = table.currentSnapshot().snapshotId();

        assertThatThrownBy(() -> catalog.dropNamespace(DB))
            .isInstanceOf(NamespaceNotEmptyException.class);
        assertThat(catalog.dropTable(EVENTS, false)).isTrue();
        assertThat(catalog.listTables(DB)).isEmpty();
        assertThatThrownBy(() -> catalog.loadTable(EVENTS))
            .isInstanceOf(NoSuchTableException.class);
        assertThat(snapshotId).isNotZero();
      }

      floe.kill();
      floe.start();

      try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
        assertThat(catalog.tableExists(EVENTS)).isFalse();
        assertThat(catalog.namespaceExists(DB)).isTrue();
        assertThat(catalog.dropNamespace(DB)).isTrue();
        assertThat(catalog.listNamespaces()).isEmpty();
      }

      // A clean stop (SIGTERM) exits normally and keeps the state too.
      assertThat(floe.stop()).isIn(0, 143);
      floe.start();
      try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
        assertThat(catalog.namespaceExists(DB)).isFalse();
      }
    }
  }

  /**
   * A data file entry (the file itself is not read by the catalog); partitioned by category when
   * the table is.
   */
}
