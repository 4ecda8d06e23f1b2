package dev.floe.projections.replay;

import dev.floe.events.Keys;
import dev.floe.events.state.DirectoryKeys;
import dev.floe.events.state.StoreNames;
import dev.floe.events.state.TableEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.TableMetadataParser;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Writes a replayed catalog as RocksDB stores in a fresh directory, with the same keys and values
 * as the processor's live stores ({@code floe-directory}, {@code floe-tables}).
 */
public final class ReplayStores {
  private ReplayStores() {}

  public static void write(ReplayState state, Path directory) {
    RocksDB.loadLibrary();
    try {
      Files.createDirectories(directory);
      try (Options options = new Options().setCreateIfMissing(true);
          RocksDB dir = RocksDB.open(options, directory.resolve(StoreNames.DIRECTORY).toString());
          RocksDB tables = RocksDB.open(options, directory.resolve(StoreNames.TABLES).toString())) {
        for (Map.Entry<ReplayState.NamespaceRef, dev.floe.events.state.NamespaceState> ns :
            state.namespaces().entrySet()) {
          dir.put(
              bytes(DirectoryKeys.namespace(ns.getKey().warehouse(), ns.getKey().namespace())),
              ns.getValue().toBytes());
        }
        for (ReplayState.ReplayedTable table : state.tables()) {
          String location = TableMetadataParser.fromJson(table.state().metadataJson()).location();
          dir.put(
              bytes(DirectoryKeys.table(table.warehouse(), table.identifier())),
              new TableEntry(null, location).toBytes());
          dir.put(
              bytes(DirectoryKeys.location(table.warehouse(), location)),
              bytes(Keys.table(table.warehouse(), table.identifier())));
          tables.put(
              bytes(Keys.table(table.warehouse(), table.identifier())), table.state().toBytes());
        }
      }
    } catch (RocksDBException | java.io.IOException e) {
      throw new IllegalStateException("Cannot write the replayed stores to " + directory, e);
    }
  }

  private static byte[] bytes(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }
}
