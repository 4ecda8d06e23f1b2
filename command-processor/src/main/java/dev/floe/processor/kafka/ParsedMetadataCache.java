package dev.floe.processor.kafka;

import dev.floe.events.state.TableState;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

/**
 * Parsed metadata of recently committed tables, so a hot table is not re-parsed from JSON on every
 * commit: a commit leaves the metadata it built here ({@link #put}), and the table's next commit
 * starts from it. An entry is used only when its metadata location equals the stored state's: after
 * an aborted transaction the store is restored and the entry simply misses.
 */
final class ParsedMetadataCache {
  private final Map<String, TableMetadata> entries;

  ParsedMetadataCache(int capacity) {
    this.entries =
        new LinkedHashMap<>(capacity, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, TableMetadata> eldest) {
            return size() > capacity;
          }
        };
  }

  TableMetadata get(String key, TableState state) {
    TableMetadata cached = entries.get(key);
    if (cached != null && state.metadataLocation().equals(cached.metadataFileLocation())) {
      return cached;
    }
    TableMetadata metadata =
        TableMetadataParser.fromJson(state.metadataLocation(), state.metadataJson());
    entries.put(key, metadata);
    return metadata;
  }

  /** The metadata a commit built, located at the metadata location the store now holds. */
  void put(String key, TableMetadata metadata) {
    entries.put(key, metadata);
  }

  void invalidate(String key) {
    entries.remove(key);
  }
}
