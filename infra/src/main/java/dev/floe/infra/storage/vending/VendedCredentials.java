package dev.floe.infra.storage.vending;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Temporary credentials for one table's storage prefix, as the REST spec's {@code
 * StorageCredential}: the prefix they cover and the FileIO properties that carry them. Holds
 * secrets: {@link #toString()} names none of them.
 *
 * @param prefix the storage prefix the credentials are scoped to (the table's location)
 * @param config FileIO properties ({@code s3.access-key-id}, {@code gcs.oauth2.token}, …)
 * @param expiresAt when the credentials stop working
 */
public record VendedCredentials(String prefix, Map<String, String> config, Instant expiresAt) {
  public VendedCredentials {
    Objects.requireNonNull(prefix, "prefix");
    config = Map.copyOf(config);
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  @Override
  public String toString() {
    return "VendedCredentials[prefix="
        + prefix
        + ", keys="
        + config.keySet()
        + ", expiresAt="
        + expiresAt
        + "]";
  }
}
