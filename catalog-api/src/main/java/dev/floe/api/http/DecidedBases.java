package dev.floe.api.http;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.TableMetadata;

/**
 * The metadata this instance decided ahead and the processor took, by table key: a table's next
 * commit here starts from it instead of parsing the file again. An entry serves only the location
 * it was built for (a table that moved on since misses). Bounded by the characters of the documents
 * held, the least recently used dropped first; the newest is always kept, since a table's next
 * commit is what asks for it.
 */
final class DecidedBases {
  private record Entry(TableMetadata metadata, long weight) {}

  private final long maxChars;
  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long chars;

  DecidedBases(long maxChars) {
    this.maxChars = maxChars;
  }

  /** The metadata at {@code location} if it is the table's entry; else null. */
  synchronized TableMetadata get(String key, String location) {
    Entry entry = entries.get(key);
    return entry != null && location.equals(entry.metadata().metadataFileLocation())
        ? entry.metadata()
        : null;
  }

  /**
   * @param weight the characters of the document and its location
   */
  synchronized void put(String key, TableMetadata metadata, long weight) {
    Entry replaced = entries.put(key, new Entry(metadata, weight));
    chars += weight - (replaced == null ? 0 : replaced.weight());
    Iterator<Map.Entry<String, Entry>> eldestFirst = entries.entrySet().iterator();
    while (chars > maxChars && entries.size() > 1) {
      Entry eldest = eldestFirst.next().getValue();
      eldestFirst.remove();
      chars -= eldest.weight();
    }
  }
}
