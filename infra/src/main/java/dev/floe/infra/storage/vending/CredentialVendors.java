package dev.floe.infra.storage.vending;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import dev.floe.infra.storage.config.S3Clients;
import dev.floe.infra.storage.config.StorageConfig;
import dev.floe.infra.storage.config.StorageProfile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * The credential vendor of each storage that has vending on, created on first use and cached per
 * (locations, access level).
 */
public final class CredentialVendors implements AutoCloseable {
  private final StorageConfig storage;
  private final Clock clock;
  private final Map<String, CredentialVendor> vendors = new ConcurrentHashMap<>();
  private final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();

  public CredentialVendors(StorageConfig storage, Clock clock) {
    this.storage = storage;
    this.clock = clock;
  }

  /**
   * Credentials for a table's locations, or empty when its storage vends none. Every location must
   * lie inside the storage that holds the first: the caller validated the table's location; this
   * refuses anything else.
   */
  public Optional<VendedCredentials> vend(List<String> locations, AccessLevel access) {
    StorageProfile profile =
        storage
            .forLocation(locations.get(0))
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Cannot vend credentials for "
                            + locations.get(0)
                            + ": no configured storage holds it"));
    for (String location : locations) {
      if (!profile.contains(location)) {
        throw new IllegalArgumentException(
            "Cannot vend credentials for " + location + ": outside the storage " + profile.root());
      }
    }
    if (!profile.vending().enabled()) {
      return Optional.empty();
    }
    CredentialVendor vendor =
        vendors.computeIfAbsent(profile.name() + "|" + profile.root(), k -> open(profile));
    return Optional.of(vendor.vend(locations, access));
  }

  /** The storage that holds the location vends credentials. */
  public boolean vends(String location) {
    return storage.forLocation(location).map(p -> p.vending().enabled()).orElse(false);
  }

  /** Non-secret settings a client needs to reach the storage that holds a location. */
  public Map<String, String> clientConfig(String location) {
    return storage
        .forLocation(location)
        .map(
            profile ->
                switch (profile.scheme()) {
                  case S3 -> S3StsCredentialVendor.clientConfig(profile);
                  case GCS -> GcsDownscopedCredentialVendor.clientConfig(profile);
                  case FILE -> Map.<String, String>of();
                })
        .orElse(Map.of());
  }

  private CredentialVendor open(StorageProfile profile) {
    CredentialVendor vendor =
        switch (profile.scheme()) {
          case S3 -> {
            S3StsCredentialVendor sts =
                new S3StsCredentialVendor(
                    profile, S3Clients.sts(profile.s3(), profile.ioTimeout()));
            closeables.add(sts);
            yield sts;
          }
          case GCS -> new GcsDownscopedCredentialVendor(profile, googleToken(profile), clock);
          case FILE -> throw new IllegalStateException("No vending for file: storage");
        };
    return new CachingCredentialVendor(vendor, profile.vending().duration(), clock);
  }

  /** The catalog's own Google token: a service account key file, or application defaults. */
  private static Supplier<GcsDownscopedCredentialVendor.SourceToken> googleToken(
      StorageProfile profile) {
    GoogleCredentials credentials;
    try {
      String file = profile.gcs().serviceAccountFile();
      if (file != null) {
        try (InputStream in = Files.newInputStream(Path.of(file))) {
          credentials = GoogleCredentials.fromStream(in);
        }
      } else {
        credentials = GoogleCredentials.getApplicationDefault();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot load Google credentials for " + profile.name(), e);
    }
    GoogleCredentials scoped =
        credentials.createScoped("https://www.googleapis.com/auth/cloud-platform");
    return () -> {
      try {
        scoped.refreshIfExpired();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot refresh the catalog's Google token", e);
      }
      AccessToken token = scoped.getAccessToken();
      Instant expires =
          token.getExpirationTime() == null
              ? Instant.now().plusSeconds(300)
              : token.getExpirationTime().toInstant();
      return new GcsDownscopedCredentialVendor.SourceToken(token.getTokenValue(), expires);
    };
  }

  @Override
  public void close() {
    for (AutoCloseable closeable : closeables) {
      try {
        closeable.close();
      } catch (Exception e) {
        LoggerFactory.getLogger(CredentialVendors.class)
            .warn("Cannot close a credential vendor: {}", e.toString());
      }
    }
  }
}
