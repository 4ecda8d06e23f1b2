package dev.floe.infra.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The configuration keys Floe reads (the README's configuration reference). A {@code floe.*} key
 * that is none of them is a mistake (a typo leaves a setting at its default without a word), so
 * Floe refuses to start and names the closest known key.
 */
public final class ConfigKeys {
  private ConfigKeys() {}

  static final Set<String> FIXED =
      Set.of(
          "floe.port",
          "floe.host",
          "floe.http.header-timeout",
          "floe.http.idle-timeout",
          "floe.http.max-connections",
          "floe.events.stream.max",
          "floe.events.stream.max-per-principal",
          "floe.events.stream.max-lifetime",
          "floe.data-dir",
          "floe.kafka.bootstrap-servers",
          "floe.kafka.embedded-port",
          "floe.kafka.topic-prefix",
          "floe.kafka.partitions",
          "floe.kafka.replication-factor",
          "floe.default-warehouse",
          "floe.reply-timeout",
          "floe.streams.commit-interval-ms",
          "floe.streams.threads",
          "floe.streams.standby-replicas",
          "floe.streams.session-timeout",
          "floe.purge-interval",
          "floe.maintenance.interval",
          "floe.audit.reads",
          "floe.idempotency-key-lifetime",
          "floe.auth",
          "floe.auth.oidc.issuer",
          "floe.auth.oidc.jwks-uri",
          "floe.auth.oidc.audience",
          "floe.auth.oidc.principal-claim",
          "floe.auth.oidc.console-client-id",
          "floe.auth.oidc.authorization-endpoint",
          "floe.auth.oidc.token-endpoint",
          "floe.auth.oidc.console-scope",
          "floe.testing.halt-before");

  static final String WAREHOUSE = "floe.warehouse.";
  static final String PROFILE = "floe.storage-profile.";

  /** What follows {@code floe.storage-profile.<name>.} (and {@code floe.warehouse.<name>.}). */
  static final Set<String> STORAGE =
      Set.of(
          "location",
          "s3.region",
          "s3.endpoint",
          "s3.path-style-access",
          "s3.access-key-id",
          "s3.secret-access-key",
          "s3.role-arn",
          "s3.external-id",
          "s3.sts-endpoint",
          "s3.partition",
          "gcs.project-id",
          "gcs.service-account-file",
          "gcs.sts-endpoint",
          "gcs.endpoint",
          "vending.enabled",
          "vending.duration",
          "remote-signing.enabled",
          "io-timeout",
          "self-check",
          "write-ahead",
          "metadata-exists-ttl");

  /** What follows {@code floe.warehouse.<name>.} only. */
  static final Set<String> WAREHOUSE_ONLY =
      Set.of("recovery-period", "expired-namespace-files", "maintenance");

  /**
   * @throws IllegalArgumentException naming the first unknown {@code floe.*} key (in sorted order)
   *     and the closest known one
   */
  public static void check(Properties props) {
    for (String key : new TreeSet<>(props.stringPropertyNames())) {
      if (key.startsWith("floe.") && !known(key)) {
        String closest = closest(key);
        throw new IllegalArgumentException(
            "Unknown configuration key "
                + key
                + (closest == null ? "" : ": did you mean " + closest + "?")
                + " (README.md, Configuration, lists every key)");
      }
    }
  }

  static boolean known(String key) {
    if (FIXED.contains(key)) {
      return true;
    }
    String[] named = named(key);
    if (named == null) {
      return false;
    }
    return STORAGE.contains(named[2])
        || (named[0].equals(WAREHOUSE) && WAREHOUSE_ONLY.contains(named[2]));
  }

  /** {prefix, name, rest} of a warehouse's or storage profile's key, or null. */
  private static String[] named(String key) {
    for (String prefix : List.of(WAREHOUSE, PROFILE)) {
      if (key.startsWith(prefix)) {
        String rest = key.substring(prefix.length());
        int dot = rest.indexOf('.');
        if (dot > 0 && dot < rest.length() - 1) {
          return new String[] {prefix, rest.substring(0, dot), rest.substring(dot + 1)};
        }
      }
    }
    return null;
  }

  /** The known key nearest to {@code key} in edits, if one is near enough to be meant. */
  static String closest(String key) {
    List<String> candidates = new ArrayList<>(FIXED);
    String[] named = named(key);
    String name = named == null ? "<name>" : named[1];
    for (String suffix : STORAGE) {
      candidates.add(WAREHOUSE + name + "." + suffix);
      candidates.add(PROFILE + name + "." + suffix);
    }
    for (String suffix : WAREHOUSE_ONLY) {
      candidates.add(WAREHOUSE + name + "." + suffix);
    }
    return closest(key, candidates);
  }

  /**
   * The word of {@code candidates} nearest to {@code word} in edits, if one is near enough to be
   * meant; null otherwise.
   */
  public static String closest(String word, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = distance(word.toLowerCase(Locale.ROOT), candidate);
      if (distance < bestDistance || (distance == bestDistance && candidate.compareTo(best) < 0)) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return bestDistance <= Math.max(3, word.length() / 4) ? best : null;
  }

  /** Levenshtein distance. */
  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
