package dev.floe.infra.storage.authority;

import dev.floe.events.state.DirectoryKeys;
import dev.floe.events.state.LocationClaim;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The {@link Claims} of a warehouse's directory store: its location index ({@code l/} for live
 * entities, {@code p/} for dropped tables whose files wait for the purger), keyed by canonical
 * location. The processor reads it while deciding, the purger before it deletes.
 */
public final class DirectoryClaims implements Claims {
  private static final StringSerializer KEYS = new StringSerializer();

  private final ReadOnlyKeyValueStore<String, byte[]> index;
  private final List<String> prefixes;

  private DirectoryClaims(ReadOnlyKeyValueStore<String, byte[]> index, List<String> prefixes) {
    this.index = index;
    this.prefixes = prefixes;
  }

  /** Live entities' locations and those awaiting purge: what a new location must not overlap. */
  public static Claims all(ReadOnlyKeyValueStore<String, byte[]> index, String warehouse) {
    return new DirectoryClaims(
        index,
        List.of(DirectoryKeys.locationPrefix(warehouse), DirectoryKeys.purgePrefix(warehouse)));
  }

  /** Live entities' locations only: what a purge must not touch. */
  public static Claims live(ReadOnlyKeyValueStore<String, byte[]> index, String warehouse) {
    return new DirectoryClaims(index, List.of(DirectoryKeys.locationPrefix(warehouse)));
  }

  @Override
  public Optional<String> holderAt(String canonical) {
    for (String prefix : prefixes) {
      byte[] value = index.get(prefix + canonical);
      if (value != null) {
        return Optional.of(holder(prefix, value));
      }
    }
    return Optional.empty();
  }

  @Override
  public Optional<String> holderUnder(String canonical, Predicate<String> counts) {
    for (String prefix : prefixes) {
      try (KeyValueIterator<String, byte[]> it =
          index.prefixScan(prefix + Claims.below(canonical), KEYS)) {
        while (it.hasNext()) {
          String holder = holder(prefix, it.next().value);
          if (counts.test(holder)) {
            return Optional.of(holder);
          }
        }
      }
    }
    return Optional.empty();
  }

  /** A purge's reservation is held by no entity that could take it back. */
  private static String holder(String prefix, byte[] value) {
    String holder = LocationClaim.fromBytes(value).holder();
    return prefix.startsWith("p/") ? "purge:" + holder : holder;
  }
}
