package dev.floe.infra.storage.config;

import dev.floe.infra.storage.config.StorageProfile.GcsSettings;
import dev.floe.infra.storage.config.StorageProfile.S3Settings;
import dev.floe.infra.storage.config.StorageProfile.SelfCheck;
import dev.floe.infra.storage.config.StorageProfile.Vending;
import dev.floe.infra.storage.location.InvalidLocationException;
import dev.floe.infra.storage.location.Location;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The storage of every warehouse and every named storage profile, read from the same properties
 * file as the rest of the configuration:
 *
 * <pre>
 * floe.warehouse.&lt;name&gt;.location=s3://bucket/prefix
 * floe.warehouse.&lt;name&gt;.s3.region=eu-west-1
 * floe.storage-profile.&lt;profile&gt;.location=s3://other-bucket/tables
 * </pre>
 *
 * Every key is listed in README.md and docs/storage.md. A namespace or a table binds a profile with
 * the creation-time property {@value #PROFILE_PROPERTY}.
 */
public final class StorageConfig {
  /** The namespace or table property that binds a storage profile at creation. */
  public static final String PROFILE_PROPERTY = "floe.storage-profile";

  private static final String WAREHOUSE_PREFIX = "floe.warehouse.";
  private static final String PROFILE_PREFIX = "floe.storage-profile.";

  private final Map<String, StorageProfile> warehouses;
  private final Map<String, StorageProfile> profiles;

  /** Every storage with its root parsed once: {@link #forLocation} runs on every load. */
  private final List<Map.Entry<Location, StorageProfile>> roots;

  public StorageConfig(
      Map<String, StorageProfile> warehouses, Map<String, StorageProfile> profiles) {
    this.warehouses = Map.copyOf(warehouses);
    this.profiles = Map.copyOf(profiles);
    List<Map.Entry<Location, StorageProfile>> parsed = new ArrayList<>();
    for (StorageProfile profile : all()) {
      parsed.add(Map.entry(Location.parse(profile.root()), profile));
    }
    this.roots = List.copyOf(parsed);
  }

  /** Only local warehouses, with no options: what a configuration without storage keys means. */
  public static StorageConfig local(Map<String, String> warehouseRoots) {
    return fromProperties(new Properties(), warehouseRoots);
  }

  /**
   * @param warehouseRoots warehouse name → root, as {@code FloeConfig} resolved them (the default
   *     warehouse included)
   */
  public static StorageConfig fromProperties(Properties props, Map<String, String> warehouseRoots) {
    Map<String, StorageProfile> warehouses = new LinkedHashMap<>();
    warehouseRoots.forEach(
        (name, root) ->
            warehouses.put(name, parse(props, WAREHOUSE_PREFIX + name + ".", name, root)));
    Map<String, StorageProfile> profiles = new LinkedHashMap<>();
    for (String key : props.stringPropertyNames()) {
      if (key.startsWith(PROFILE_PREFIX) && key.endsWith(".location")) {
        String name = key.substring(PROFILE_PREFIX.length(), key.length() - ".location".length());
        profiles.put(
            name, parse(props, PROFILE_PREFIX + name + ".", name, props.getProperty(key).trim()));
      }
    }
    return new StorageConfig(warehouses, profiles);
  }

  private static StorageProfile parse(Properties props, String prefix, String name, String root) {
    try {
      S3Settings s3 = null;
      GcsSettings gcs = null;
      StorageProfile.Scheme scheme = StorageProfile.schemeOf(root);
      if (scheme == StorageProfile.Scheme.S3) {
        s3 =
            new S3Settings(
                get(props, prefix, "s3.region"),
                get(props, prefix, "s3.endpoint"),
                Boolean.parseBoolean(get(props, prefix, "s3.path-style-access")),
                get(props, prefix, "s3.access-key-id"),
                get(props, prefix, "s3.secret-access-key"),
                get(props, prefix, "s3.role-arn"),
                get(props, prefix, "s3.external-id"),
                get(props, prefix, "s3.sts-endpoint"),
                get(props, prefix, "s3.partition"));
      } else if (scheme == StorageProfile.Scheme.GCS) {
        gcs =
            new GcsSettings(
                get(props, prefix, "gcs.project-id"),
                get(props, prefix, "gcs.service-account-file"),
                get(props, prefix, "gcs.sts-endpoint"),
                get(props, prefix, "gcs.endpoint"));
      }
      String duration = get(props, prefix, "vending.duration");
      Vending vending =
          new Vending(
              Boolean.parseBoolean(get(props, prefix, "vending.enabled")),
              duration == null ? Duration.ofHours(1) : Duration.parse(duration));
      String timeout = get(props, prefix, "io-timeout");
      String selfCheck = get(props, prefix, "self-check");
      String writeAhead = get(props, prefix, "write-ahead");
      String existsTtl = get(props, prefix, "metadata-exists-ttl");
      return new StorageProfile(
          name,
          root,
          s3,
          gcs,
          vending,
          Boolean.parseBoolean(get(props, prefix, "remote-signing.enabled")),
          timeout == null ? null : Duration.parse(timeout),
          selfCheck == null ? null : SelfCheck.parse(selfCheck),
          writeAhead == null ? null : StorageProfile.WriteAhead.parse(writeAhead),
          existsTtl == null ? null : Duration.parse(existsTtl));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "Invalid storage configuration " + prefix + "*: " + e.getMessage(), e);
    }
  }

  private static String get(Properties props, String prefix, String key) {
    String value = props.getProperty(prefix + key);
    return value == null || value.isBlank() ? null : value.trim();
  }

  public StorageProfile warehouse(String name) {
    return warehouses.get(name);
  }

  public Optional<StorageProfile> profile(String name) {
    return Optional.ofNullable(profiles.get(name));
  }

  /**
   * The configured storage whose root holds this location, compared in canonical form (the deepest
   * root wins); empty for a location no root holds or one the location authority refuses.
   */
  public Optional<StorageProfile> forLocation(String location) {
    Location parsed;
    try {
      parsed = Location.parse(location);
    } catch (InvalidLocationException e) {
      return Optional.empty();
    }
    Map.Entry<Location, StorageProfile> best = null;
    for (Map.Entry<Location, StorageProfile> root : roots) {
      if (root.getKey().contains(parsed)
          && (best == null || root.getKey().segments().size() > best.getKey().segments().size())) {
        best = root;
      }
    }
    return best == null ? Optional.empty() : Optional.of(best.getValue());
  }

  /** Every named storage profile. */
  public Collection<StorageProfile> profiles() {
    return profiles.values();
  }

  /** Every warehouse's storage, then every profile. */
  public Collection<StorageProfile> all() {
    List<StorageProfile> all = new ArrayList<>(warehouses.values());
    all.addAll(profiles.values());
    return all;
  }
}
