package dev.floe.projections.replay;

import dev.floe.events.Keys;
import dev.floe.events.state.DirectoryKeys;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.StoreNames;
import dev.floe.events.state.TableEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Writes a replayed catalog as RocksDB stores in a fresh directory, with the same keys and values
 * as the processor's live stores ({@code floe-directory}, {@code floe-tables}).
 */
public final class ReplayStores {
  private static final long BATCH_BYTES = 16L << 20;

  private ReplayStores() {}

  public static void write(ReplayState state, Path directory) {
    RocksDB.loadLibrary();
    try {
      Files.createDirectories(directory);
      // One batch per store, no write-ahead log: the directory is new, and a replay that fails
      // half-way is started again into another one.
      try (Options options = new Options().setCreateIfMissing(true);
          WriteOptions write = new WriteOptions().setDisableWAL(true);
          WriteBatch dirBatch = new WriteBatch();
          WriteBatch tablesBatch = new WriteBatch();
          RocksDB dir = RocksDB.open(options, directory.resolve(StoreNames.DIRECTORY).toString());
          RocksDB tables = RocksDB.open(options, directory.resolve(StoreNames.TABLES).toString())) {
        for (Map.Entry<ReplayState.NamespaceRef, NamespaceState> ns :
            state.namespaces().entrySet()) {
          dirBatch.put(
              bytes(DirectoryKeys.namespace(ns.getKey().warehouse(), ns.getKey().namespace())),
              ns.getValue().toBytes());
        }
        for (ReplayedTable table : state.tables()) {
          String location = table.metadata().location();
          String key = DirectoryKeys.table(table.warehouse(), table.identifier());
          String uuid = table.metadata().uuid();
          dirBatch.put(bytes(key), new TableEntry(null, location, uuid).toBytes());
          dirBatch.put(bytes(DirectoryKeys.uuid(table.warehouse(), uuid)), bytes(key));
          dirBatch.put(
              bytes(DirectoryKeys.location(table.warehouse(), location)),
              bytes(Keys.table(table.warehouse(), table.identifier())));
          tablesBatch.put(
              bytes(Keys.table(table.warehouse(), table.identifier())), table.state().toBytes());
          if (tablesBatch.getDataSize() > BATCH_BYTES) {
            tables.write(write, tablesBatch);
            tablesBatch.clear();
          }
        }
        dir.write(write, dirBatch);
        tables.write(write, tablesBatch);
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
          dir.flush(flush);
          tables.flush(flush);
        }
      }
    } catch (RocksDBException | IOException e) {
      throw new IllegalStateException("Cannot write the replayed stores to " + directory, e);
    }
  }

  private static byte[] bytes(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }
}
