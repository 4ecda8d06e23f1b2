package dev.floe.infra.storage;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The documents this process wrote lately, by location, oldest dropped first: bounded by characters
 * and by age. A document written here is asked for about once, right after it is written (the
 * answer to the change that wrote it), so the newest are the ones to keep. A frequency-based cache
 * (Caffeine's admission) keeps the opposite: once full of multi-megabyte documents that had each
 * been read once, it refused every new one, and a commit on a 10,000-snapshot table read its own
 * file back and parsed it to answer (bench/notes.md).
 */
final class RecentDocuments {
  private record Entry(String json, long writtenAt, long weight) {}

  private final long maxChars;
  private final long maxAgeNanos;
  private final LongSupplier nanoClock;
  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();
  private long chars;

  RecentDocuments(long maxChars, Duration maxAge) {
    this(maxChars, maxAge, System::nanoTime);
  }

  RecentDocuments(long maxChars, Duration maxAge, LongSupplier nanoClock) {
    this.maxChars = maxChars;
    this.maxAgeNanos = maxAge.toNanos();
    this.nanoClock = nanoClock;
  }

  /** Keeps a document just written, dropping the oldest beyond the bounds. */
  synchronized void put(String location, String json) {
    Entry replaced = entries.remove(location);
    if (replaced != null) {
      chars -= replaced.weight();
    }
    long weight = (long) location.length() + json.length();
    long now = nanoClock.getAsLong();
    if (weight <= maxChars) {
      entries.put(location, new Entry(json, now, weight));
      chars += weight;
    }
    Iterator<Map.Entry<String, Entry>> oldestFirst = entries.entrySet().iterator();
    while (oldestFirst.hasNext()) {
      Entry oldest = oldestFirst.next().getValue();
      if (chars <= maxChars && now - oldest.writtenAt() <= maxAgeNanos) {
        break;
      }
      oldestFirst.remove();
      chars -= oldest.weight();
    }
  }

  /** The document written at this location within the age bound, or null. */
  synchronized String get(String location) {
    Entry entry = entries.get(location);
    if (entry == null || nanoClock.getAsLong() - entry.writtenAt() > maxAgeNanos) {
      return null;
    }
    return entry.json();
  }

  /** Characters held, locations included. */
  synchronized long chars() {
    return chars;
  }
}
