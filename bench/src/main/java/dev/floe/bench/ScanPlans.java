package dev.floe.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;

/**
 * The scan planning workloads, on a table of {@value #MANIFESTS} manifests of {@value
 * #FILES_PER_MANIFEST} data files each: {@code plan-client}, Iceberg's Java client planning itself
 * (it reads the manifest list and every manifest from storage), and {@code plan-server}, the same
 * client with {@code scan-planning-mode=server} (the catalog plans; the client fetches the plan
 * tasks). An operation is what a short-lived client does: load the table (no client-side table
 * cache) and plan a full scan. The client reaches storage with the settings given as system
 * properties {@code floe.bench.client.<catalog property>} (bench/planning.sh: the S3 endpoint and
 * keys). The first plan of each, on a catalog that never read the table's manifests, is measured
 * once before any warm-up ({@link #firstPlans}).
 */
final class ScanPlans {
  static final String CLIENT = "plan-client";
  static final String SERVER = "plan-server";

  /** The first plans' times, in the results beside the workloads. */
  static final String FIRST = "plan-first";

  static final int MANIFESTS = 1000;
  static final int FILES_PER_MANIFEST = 10;

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()));

  private final RESTCatalog local;
  private final RESTCatalog served;
  private final TableIdentifier table;
  private final Map<String, Object> firstPlans = new LinkedHashMap<>();

  ScanPlans(RestTarget target, String run) {
    this.local = connect(target, "client");
    this.served = connect(target, "server");
    this.table = TableIdentifier.of(Namespace.of(run + "_plans"), "wide");
    create();
    firstPlans.put("server-ms", timedMillis(served));
    firstPlans.put("client-ms", timedMillis(local));
  }

  /** How long the first plan of each took, in milliseconds. */
  Map<String, Object> firstPlans() {
    return firstPlans;
  }

  Stats run(String workload, int seconds) {
    RESTCatalog catalog = workload.equals(SERVER) ? served : local;
    return Load.closedLoop(seconds, 1, () -> plan(catalog));
  }

  private int plan(RESTCatalog catalog) {
    Table loaded = catalog.loadTable(table);
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = loaded.newScan().planFiles()) {
      for (FileScanTask ignored : tasks) {
        files++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files == MANIFESTS * FILES_PER_MANIFEST ? 200 : 500;
  }

  private double timedMillis(RESTCatalog catalog) {
    long began = System.nanoTime();
    if (plan(catalog) != 200) {
      throw new IllegalStateException("A plan of " + table + " missed files");
    }
    return (System.nanoTime() - began) / 1e6;
  }

  /** The table, its manifests written 16 at a time and committed at once. */
  private void create() {
    local.createNamespace(table.namespace());
    Table created = local.createTable(table, SCHEMA, PartitionSpec.unpartitioned());
    ExecutorService writers = Executors.newFixedThreadPool(16);
    try {
      List<Future<ManifestFile>> manifests =
          IntStream.range(0, MANIFESTS)
              .mapToObj(m -> writers.submit(() -> manifest(created, m)))
              .toList();
      AppendFiles append = created.newFastAppend();
      for (Future<ManifestFile> manifest : manifests) {
        append.appendManifest(manifest.get());
      }
      append.commit();
    } catch (Exception e) {
      throw new IllegalStateException("Cannot create " + table + ": " + e, e);
    } finally {
      writers.shutdownNow();
    }
  }

  private static ManifestFile manifest(Table table, int index) throws IOException {
    String location = table.location() + "/metadata/bench-" + index + ".avro";
    ManifestWriter<DataFile> writer =
        ManifestFiles.write(2, table.spec(), table.io().newOutputFile(location), null);
    try (writer) {
      for (int f = 0; f < FILES_PER_MANIFEST; f++) {
        writer.add(
            DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/m" + index + "-f" + f + ".parquet")
                .withFileSizeInBytes(1 << 20)
                .withRecordCount(1000)
                .build());
      }
    }
    return writer.toManifestFile();
  }

  private static RESTCatalog connect(RestTarget target, String mode) {
    Map<String, String> props = new HashMap<>();
    System.getProperties()
        .forEach(
            (key, value) -> {
              if (key.toString().startsWith("floe.bench.client.")) {
                props.put(
                    key.toString().substring("floe.bench.client.".length()), value.toString());
              }
            });
    props.put(CatalogProperties.URI, target.uri);
    props.put(CatalogProperties.WAREHOUSE_LOCATION, target.warehouse);
    props.put("token", target.token);
    props.put("scan-planning-mode", mode);
    props.put("rest-table-cache.max-entries", "0");
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize("bench-" + mode, props);
    return catalog;
  }
}
