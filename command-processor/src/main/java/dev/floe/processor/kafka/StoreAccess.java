package dev.floe.processor.kafka;

import dev.floe.events.access.AccessChange;
import dev.floe.events.access.AccessEntries;
import dev.floe.events.access.AccessEntries.Entry;
import dev.floe.events.command.CommandHeader;
import dev.floe.processor.AccessDecider;
import dev.floe.processor.Decision;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** The access-control state in the {@code floe-access} store, as {@link AccessDecider} reads it. */
final class StoreAccess implements AccessDecider.State {
  private final KeyValueStore<String, byte[]> store;

  StoreAccess(KeyValueStore<String, byte[]> store) {
    this.store = store;
  }

  /** Decides a change and writes what it decided. */
  Decision decide(CommandHeader header, AccessChange change) {
    AccessDecider.Outcome outcome = AccessDecider.decide(this, header, change);
    for (Map.Entry<String, Entry> write : outcome.writes().entrySet()) {
      if (write.getValue() == null) {
        store.delete(write.getKey());
      } else {
        store.put(write.getKey(), write.getValue().toBytes());
      }
    }
    if (!outcome.decision().events().isEmpty()) {
      store.put(
          AccessEntries.SEQUENCE_KEY,
          ByteBuffer.allocate(Long.BYTES)
              .putLong(sequence() + outcome.decision().events().size())
              .array());
    }
    return outcome.decision();
  }

  @Override
  public Optional<Entry> get(String key) {
    byte[] value = store.get(key);
    return value == null ? Optional.empty() : Optional.of(Entry.fromBytes(value));
  }

  @Override
  public List<Entry> withPrefix(String prefix) {
    List<Entry> entries = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it = store.prefixScan(prefix, new StringSerializer())) {
      while (it.hasNext()) {
        KeyValue<String, byte[]> next = it.next();
        entries.add(Entry.fromBytes(next.value));
      }
    }
    return entries;
  }

  @Override
  public long sequence() {
    byte[] value = store.get(AccessEntries.SEQUENCE_KEY);
    return value == null ? 0 : ByteBuffer.wrap(value).getLong();
  }
}
