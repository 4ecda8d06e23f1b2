package dev.floe.infra.storage.authority;

import dev.floe.infra.storage.location.Location;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The locations held by a warehouse's entities (live tables and views, and dropped ones whose files
 * wait for the purger), keyed by canonical location ({@link Location#canonical()}). Implemented on
 * the warehouse's directory; {@link LocationAuthority} is the only reader.
 */
public interface Claims {
  /** Who holds exactly this canonical location, if anyone (the entity's key). */
  Optional<String> holderAt(String canonical);

  /** A holder of a location strictly under this canonical location that {@code counts}, if any. */
  Optional<String> holderUnder(String canonical, Predicate<String> counts);

  /** No claims at all. */
  Claims NONE =
      new Claims() {
        @Override
        public Optional<String> holderAt(String canonical) {
          return Optional.empty();
        }

        @Override
        public Optional<String> holderUnder(String canonical, Predicate<String> counts) {
          return Optional.empty();
        }
      };

  /** The prefix under which every location strictly below {@code canonical} sorts. */
  static String below(String canonical) {
    return canonical.endsWith("/") ? canonical : canonical + "/";
  }
}
