package dev.floe.processor.kafka;

import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.state.DeletedEntity;
import dev.floe.events.state.DirectoryKeys;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.processor.RecoveryDecider;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expunges every dropped table, view and namespace of this partition's warehouses whose recovery
 * period has ended, on the single writer of their warehouse key like every change: its events, and
 * the directory's change, in the task's transaction. {@link #expire} runs when the earliest kept
 * entity expires ({@link ExpirySchedule}) and returns the next expiry.
 */
final class Expunger {
  private static final Logger LOG = LoggerFactory.getLogger(Expunger.class);
  private static final StringSerializer KEYS = new StringSerializer();

  private final ProcessorContext<String, byte[]> context;
  private final KeyValueStore<String, byte[]> directory;
  private final LocationAuthority locations;

  Expunger(
      ProcessorContext<String, byte[]> context,
      KeyValueStore<String, byte[]> directory,
      LocationAuthority locations) {
    this.context = context;
    this.directory = directory;
    this.locations = locations;
  }

  long expire(long nowMs) {
    Set<String> warehouses = new TreeSet<>();
    long next = Long.MAX_VALUE;
    try (KeyValueIterator<String, byte[]> it = directory.prefixScan(DirectoryKeys.DELETED, KEYS)) {
      while (it.hasNext()) {
        DeletedEntity entity = DeletedEntity.fromBytes(it.next().value);
        if (entity.expiresAtMs() <= nowMs) {
          warehouses.add(entity.warehouse());
        } else {
          next = Math.min(next, entity.expiresAtMs());
        }
      }
    }
    boolean any = false;
    for (String warehouse : warehouses) {
      StoreDirectory dir = new StoreDirectory(directory, warehouse);
      for (CatalogEvent event : RecoveryDecider.expire(dir, locations, warehouse, nowMs)) {
        dir.apply(event, nowMs);
        byte[] envelope = EventEnvelope.wrap(event, 0, nowMs).toBytes();
        context.forward(new Record<>(event.key(), envelope, nowMs), CatalogTopology.EVENTS_SINK);
        LOG.info(
            "Recorded {} for {} of warehouse {} (recovery period over)",
            event.type(),
            event.subject(),
            warehouse);
        any = true;
      }
    }
    if (any) {
      context.commit();
    }
    return next;
  }
}
