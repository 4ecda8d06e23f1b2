package dev.floe.processor.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.floe.events.state.DirectoryKeys;
import dev.floe.events.state.LocationClaim;
import dev.floe.events.state.PendingAreaPurge;
import dev.floe.events.state.TableEntry;
import dev.floe.infra.storage.location.InvalidLocationException;
import dev.floe.infra.storage.location.Location;
import java.util.Optional;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A warehouse directory's indexes in the processor's store: which name holds a location ({@code
 * l/}, keyed by canonical location), which locations await the purger ({@code p/}), and which live
 * table or view holds a uuid.
 */
final class DirectoryIndexes {
  private final KeyValueStore<String, byte[]> store;
  private final String warehouse;

  DirectoryIndexes(KeyValueStore<String, byte[]> store, String warehouse) {
    this.store = store;
    this.warehouse = warehouse;
  }

  Optional<String> uuidHolder(String uuid) {
    byte[] holder = uuid == null ? null : store.get(DirectoryKeys.uuid(warehouse, uuid));
    return holder == null ? Optional.empty() : Optional.of(new String(holder, UTF_8));
  }

  void holdUuid(TableEntry entry, String holder) {
    if (entry.uuid() != null) {
      store.put(DirectoryKeys.uuid(warehouse, entry.uuid()), holder.getBytes(UTF_8));
    }
  }

  /** Only while {@code holder} holds the uuid: a later entity with the same uuid keeps its own. */
  void releaseUuid(TableEntry entry, String holder) {
    if (entry.uuid() == null) {
      return;
    }
    String key = DirectoryKeys.uuid(warehouse, entry.uuid());
    byte[] held = store.get(key);
    if (held != null && holder.equals(new String(held, UTF_8))) {
      store.delete(key);
    }
  }

  void hold(String location, String holder) {
    // A location held from before canonical keys that no longer parses keeps its old key.
    store.put(
        DirectoryKeys.location(warehouse, canonicalOrSelf(location)),
        new LocationClaim(holder, location, null).toBytes());
  }

  void release(String location) {
    store.delete(DirectoryKeys.location(warehouse, canonicalOrSelf(location)));
  }

  void releaseIfHeldBy(String location, String holder) {
    String key = DirectoryKeys.location(warehouse, canonicalOrSelf(location));
    byte[] claim = store.get(key);
    if (claim != null && holder.equals(LocationClaim.fromBytes(claim).holder())) {
      store.delete(key);
    }
  }

  /** Kept from every other entity until the purger has deleted its files. */
  void reserveForPurge(String location, String holder, String uuid) {
    store.put(
        DirectoryKeys.purge(warehouse, canonicalOrSelf(location)),
        new LocationClaim(holder, location, uuid).toBytes());
  }

  void forgetPurge(String location) {
    store.delete(DirectoryKeys.purge(warehouse, canonicalOrSelf(location)));
    store.delete(DirectoryKeys.purge(warehouse, location));
    store.delete(DirectoryKeys.areaPurge(warehouse, canonicalOrSelf(location)));
  }

  boolean purgePending(String location) {
    return store.get(DirectoryKeys.purge(warehouse, canonicalOrSelf(location))) != null
        || store.get(DirectoryKeys.purge(warehouse, location)) != null
        || store.get(DirectoryKeys.areaPurge(warehouse, canonicalOrSelf(location))) != null;
  }

  /**
   * An expired namespace's area for the purger ({@code a/}): not a claim, so a namespace created
   * again under that name places tables in it meanwhile; the purger spares what they hold and
   * whatever was written after {@code atMs}.
   */
  void reserveArea(String area, long atMs) {
    store.put(
        DirectoryKeys.areaPurge(warehouse, canonicalOrSelf(area)),
        new PendingAreaPurge(area, atMs).toBytes());
  }

  /** Locations stored before canonical keys were keyed by their normalised spelling. */
  private static String canonicalOrSelf(String location) {
    try {
      return Location.parse(location).canonical();
    } catch (InvalidLocationException e) {
      return location;
    }
  }
}
