package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.DataFileEntries;
import dev.floe.server.it.support.RestClients;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A warehouse named {@code default@<time>} answers as the catalog was then, and refuses changes.
 */
class AsOfReadIT {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final TableIdentifier SALES = TableIdentifier.of(Namespace.of("db"), "sales");
  private static final TableIdentifier LATER = TableIdentifier.of(Namespace.of("db"), "later");

  @TempDir Path dataDir;

  @Test
  void readsTablesAsOfAPastTimeThroughTheJavaClient() throws Exception {
    try (FloeProcess floe = new FloeProcess(dataDir).start();
        RESTCatalog live = RestClients.connect(floe.uri(), Map.of())) {
      live.createNamespace(SALES.namespace());
      Table sales = live.createTable(SALES, SCHEMA);
      sales.newFastAppend().appendFile(DataFileEntries.of(sales, "a")).commit();
      long firstSnapshot = sales.currentSnapshot().snapshotId();
      Thread.sleep(20);
      Instant then = Instant.now();
      Thread.sleep(20);
      sales.newFastAppend().appendFile(DataFileEntries.of(sales, "b")).commit();
      sales.updateSchema().addColumn("late", Types.StringType.get()).commit();
      live.createTable(LATER, SCHEMA);

      try (RESTCatalog past =
          RestClients.connect(
              floe.uri(), Map.of(CatalogProperties.WAREHOUSE_LOCATION, "default@" + then))) {
        Table asOf = past.loadTable(SALES);
        assertThat(asOf.currentSnapshot().snapshotId()).isEqualTo(firstSnapshot);
        assertThat(asOf.snapshots()).hasSize(1);
        assertThat(asOf.schema().findField("late")).isNull();
        // The answer is the metadata file as written then, not a rebuild stamped with today.
        TableMetadata served = ((HasTableOperations) asOf).operations().current();
        JsonNode file =
            new ObjectMapper()
                .readTree(Files.readString(Path.of(URI.create(served.metadataFileLocation()))));
        assertThat(served.lastUpdatedMillis())
            .isEqualTo(file.path("last-updated-ms").asLong())
            .isLessThan(then.toEpochMilli());
        List<Long> loggedTimes = new ArrayList<>();
        file.path("metadata-log").forEach(e -> loggedTimes.add(e.path("timestamp-ms").asLong()));
        assertThat(served.previousFiles())
            .extracting(TableMetadata.MetadataLogEntry::timestampMillis)
            .isNotEmpty()
            .containsExactlyElementsOf(loggedTimes);
        assertThat(past.listTables(SALES.namespace())).containsExactly(SALES);
        assertThatThrownBy(() -> past.loadTable(LATER)).isInstanceOf(NoSuchTableException.class);

        assertThatThrownBy(() -> past.createNamespace(Namespace.of("nope")))
            .isInstanceOf(ForbiddenException.class);
        assertThatThrownBy(() -> past.dropTable(SALES, false))
            .isInstanceOf(ForbiddenException.class);
        assertThatThrownBy(() -> asOf.updateProperties().set("k", "v").commit())
            .isInstanceOf(ForbiddenException.class);
      }

      Table now = live.loadTable(SALES);
      assertThat(now.snapshots()).hasSize(2);
      assertThat(now.properties()).doesNotContainKey("k");
    }
  }
}
