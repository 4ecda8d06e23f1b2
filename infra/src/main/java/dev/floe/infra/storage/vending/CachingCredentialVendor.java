package dev.floe.infra.storage.vending;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reuses a vended credential for the same locations and access level while at least half of its
 * lifetime (and at least a minute) remains, so a hot table does not cost an STS call per load and a
 * client always gets a credential with time left.
 */
public final class CachingCredentialVendor implements CredentialVendor {
  private static final int MAX_ENTRIES = 10_000;

  private record Key(List<String> locations, AccessLevel access) {}

  private final CredentialVendor vendor;
  private final Duration lifetime;
  private final Clock clock;
  private final Map<Key, VendedCredentials> cache = new ConcurrentHashMap<>();

  public CachingCredentialVendor(CredentialVendor vendor, Duration lifetime, Clock clock) {
    this.vendor = vendor;
    this.lifetime = lifetime;
    this.clock = clock;
  }

  @Override
  public VendedCredentials vend(List<String> locations, AccessLevel access) {
    Key key = new Key(List.copyOf(locations), access);
    VendedCredentials cached = cache.get(key);
    if (cached != null && fresh(cached)) {
      return cached;
    }
    VendedCredentials vended = vendor.vend(locations, access);
    if (cache.size() >= MAX_ENTRIES) {
      cache.values().removeIf(credentials -> !fresh(credentials));
      if (cache.size() >= MAX_ENTRIES) {
        cache.clear();
      }
    }
    cache.put(key, vended);
    return vended;
  }

  private boolean fresh(VendedCredentials credentials) {
    Duration margin = lifetime.dividedBy(2);
    if (margin.compareTo(Duration.ofMinutes(1)) < 0) {
      margin = Duration.ofMinutes(1);
    }
    return clock.instant().plus(margin).isBefore(credentials.expiresAt());
  }
}
