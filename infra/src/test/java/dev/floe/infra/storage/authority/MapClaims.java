package dev.floe.infra.storage.authority;

import dev.floe.infra.storage.location.Location;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/** Claims in a sorted map, found the way the directory store finds them: exact keys and a scan. */
final class MapClaims implements Claims {
  private final TreeMap<String, String> byCanonical = new TreeMap<>();

  MapClaims hold(String location, String holder) {
    byCanonical.put(Location.parse(location).canonical(), holder);
    return this;
  }

  @Override
  public Optional<String> holderAt(String canonical) {
    return Optional.ofNullable(byCanonical.get(canonical));
  }

  @Override
  public Optional<String> holderUnder(String canonical, Predicate<String> counts) {
    String prefix = Claims.below(canonical);
    for (Map.Entry<String, String> entry : byCanonical.tailMap(prefix, false).entrySet()) {
      if (!entry.getKey().startsWith(prefix)) {
        break;
      }
      if (counts.test(entry.getValue())) {
        return Optional.of(entry.getValue());
      }
    }
    return Optional.empty();
  }
}
