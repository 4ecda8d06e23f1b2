package dev.floe.processor.kafka;

import dev.floe.events.Keys;
import dev.floe.events.RecordLimits;
import dev.floe.events.state.StoreNames;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.LocationRefusedException;
import dev.floe.infra.storage.MetadataFiles;
import dev.floe.processor.Decision;
import org.apache.iceberg.TableMetadata;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partition's tables and views as the processor reads and writes them: the pointers in {@code
 * floe-tables} and {@code floe-views}, the metadata files they point to, and the parsed metadata of
 * the tables committed to lately. A new state's metadata file is written before its pointer.
 */
final class TableStores {
  private static final Logger LOG = LoggerFactory.getLogger(TableStores.class);

  private final MetadataFiles files;
  private final ParsedMetadataCache parsed = new ParsedMetadataCache(256);
  private final KeyValueStore<String, byte[]> tables;
  private final KeyValueStore<String, byte[]> views;

  TableStores(ProcessorContext<String, byte[]> context, MetadataFiles files) {
    this.files = files;
    this.tables = context.getStateStore(StoreNames.TABLES);
    this.views = context.getStateStore(StoreNames.VIEWS);
  }

  /**
   * A table's stored state; its document is read from its file (through the cache) when first used:
   * a commit whose parsed metadata is cached reads no file, a drop or a rename needs none.
   */
  TableState table(String key) {
    return read(tables, key);
  }

  TableState view(String key) {
    return read(views, key);
  }

  /** The table's current metadata, parsed (cached by key and metadata location). */
  TableMetadata parsed(String key, TableState state) {
    return parsed.get(key, state);
  }

  void writeTable(String key, Decision decision) {
    write(tables, key, decision);
    if (decision.metadata() != null) {
      parsed.put(key, decision.metadata());
    } else if (decision.tableRemoved() || decision.tableState() != null) {
      parsed.invalidate(key); // its entry is of a version the table no longer points at
    }
  }

  void writeView(String key, Decision decision) {
    write(views, key, decision);
  }

  /** Installs a state whose metadata file was written before (a prepared table's). */
  void putTable(String key, TableState state) {
    tables.put(key, state.toBytes());
  }

  /** What a multi-table transaction holds for the table; null when none holds it. */
  PreparedTable prepared(String key) {
    byte[] raw = tables.get(Keys.prepared(key));
    return raw == null ? null : PreparedTable.fromBytes(raw);
  }

  void putPrepared(String key, PreparedTable prepared) {
    tables.put(Keys.prepared(key), prepared.toBytes());
  }

  void deletePrepared(String key) {
    tables.delete(Keys.prepared(key));
  }

  /**
   * A table's metadata stays within Floe's record limit: the records that still carry a document (a
   * create's event, a multi-table transaction's prepared state, a register) must be accepted by
   * Kafka. A larger change is refused before anything is written, rather than wedging the partition
   * on a record Kafka refuses.
   */
  static void requireWithinRecordLimit(TableState state) {
    if (!state.holdsDocument()) {
      return; // a renamed table's pointer: its document is in its file already, and in no record
    }
    long size = state.metadataJson().length() + state.metadataLocation().length();
    if (size > RecordLimits.MAX_TABLE_STATE_BYTES) {
      throw new TooLargeException(
          String.format(
              "The table's metadata would be %d bytes, more than Floe keeps for one table (%d)",
              size, RecordLimits.MAX_TABLE_STATE_BYTES));
    }
  }

  void writeMetadataFile(TableState state) {
    try {
      files.writeJson(state.metadataLocation(), state.metadataJson());
    } catch (RuntimeException e) {
      LocationRefusedException refused = LocationRefusedException.in(e);
      throw refused != null ? refused : new MetadataWriteException(e);
    }
  }

  /** An aborted transaction's metadata file was never part of any table. */
  void deleteQuietly(String location) {
    try {
      files.io(location).deleteFile(location);
    } catch (RuntimeException e) {
      LOG.warn("Could not delete the unused metadata file {}: {}", location, e.getMessage());
    }
  }

  private TableState read(KeyValueStore<String, byte[]> store, String key) {
    byte[] value = store.get(key);
    return value == null ? null : TableState.fromBytes(value, files);
  }

  /**
   * Writes the new metadata file first, then the store: if the process dies in between, the
   * transaction aborts and the reprocessed command rewrites the same file name.
   */
  private void write(KeyValueStore<String, byte[]> store, String key, Decision decision) {
    if (decision.tableState() != null) {
      TableState state = decision.tableState();
      requireWithinRecordLimit(state);
      if (decision.writeMetadata()) {
        writeMetadataFile(state);
      }
      store.put(key, state.toBytes());
    } else if (decision.tableRemoved()) {
      store.delete(key);
    }
  }

  /** The change would make a table's state larger than Floe's records take. */
  static final class TooLargeException extends RuntimeException {
    TooLargeException(String message) {
      super(message);
    }
  }

  /** The warehouse storage refused a metadata write: nothing is applied, the client may retry. */
  static final class MetadataWriteException extends RuntimeException {
    MetadataWriteException(RuntimeException cause) {
      super(cause.getMessage(), cause);
    }
  }
}
