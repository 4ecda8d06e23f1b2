package dev.floe.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.RESTCatalog;

/** The {@code hot-appends} workload: real appends to one table through Iceberg's Java client. */
final class HotAppends {
  private final RestTarget target;
  private final String table;

  /**
   * @param table the table's path under the catalog's prefix ({@code namespaces/<ns>/tables/<t>})
   */
  HotAppends(RestTarget target, String table) {
    this.target = target;
    this.table = table;
  }

  /**
   * Fast appends through Iceberg's Java client, which sends {@code assert-ref-snapshot-id}: a
   * writer that loses the race gets 409, refreshes and retries (counted as conflicts and retries).
   */
  Stats run(int seconds, int writers) {
    String[] parts = table.split("/");
    Namespace namespace = Namespace.of(parts[1].split(Pattern.quote(target.separator)));
    TableIdentifier id = TableIdentifier.of(namespace, parts[3]);
    try (RESTCatalog catalog = javaClient()) {
      // Each 409 comes back to the writer's loop, which counts it and retries at once.
      catalog.loadTable(id).updateProperties().set("commit.retry.num-retries", "0").commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Stats stats = new Stats();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    long start = System.nanoTime();
    Load.parallel(
        writers,
        w -> {
          try (RESTCatalog catalog = javaClient()) {
            Table loaded = catalog.loadTable(id);
            while (System.nanoTime() < deadline) {
              long began = System.nanoTime();
              boolean done = false;
              while (!done && System.nanoTime() < deadline + TimeUnit.SECONDS.toNanos(30)) {
                try {
                  loaded.newFastAppend().appendFile(file()).commit();
                  done = true;
                } catch (CommitFailedException e) {
                  stats.conflict();
                  stats.retry();
                  loaded.refresh();
                } catch (RuntimeException e) {
                  stats.error();
                  loaded.refresh();
                }
              }
              if (done) {
                stats.record(System.nanoTime() - began);
              }
            }
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
    stats.elapsed(System.nanoTime() - start);
    return stats;
  }

  private RESTCatalog javaClient() {
    Map<String, String> props = new HashMap<>();
    props.put("uri", target.uri);
    if (target.warehouse != null) {
      props.put("warehouse", target.warehouse);
    }
    props.put("io-impl", "dev.floe.infra.storage.LocalFileIO");
    if (target.token != null) {
      props.put("token", target.token);
    }
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize(target.name, props);
    return catalog;
  }

  private static DataFile file() {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("/tmp/floe-bench/data/" + UUID.randomUUID() + ".parquet")
        .withFileSizeInBytes(1024)
        .withRecordCount(10)
        .build();
  }
}
