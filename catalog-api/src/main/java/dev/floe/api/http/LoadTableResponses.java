package dev.floe.api.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.floe.infra.storage.vending.VendedCredentials;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

/**
 * LoadTableResult bodies and their ETags. The stored metadata document is spliced in as-is (it is
 * already Iceberg's JSON): a load neither parses nor re-serialises it, unless the client asked for
 * {@code snapshots=refs}.
 */
final class LoadTableResponses {
  enum SnapshotMode {
    ALL,
    REFS;

    static SnapshotMode parse(String value) {
      if (value == null || value.isEmpty() || value.equalsIgnoreCase("all")) {
        return ALL;
      }
      if (value.equalsIgnoreCase("refs")) {
        return REFS;
      }
      throw ApiException.badRequest("Invalid snapshots mode: %s (expected all or refs)", value);
    }
  }

  private LoadTableResponses() {}

  /**
   * The entity tag of one representation of one metadata version: a new commit (new metadata
   * location) or another snapshot mode yields another tag.
   */
  static String etag(String metadataLocation, SnapshotMode mode) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] hash = digest.digest((mode + "|" + metadataLocation).getBytes(StandardCharsets.UTF_8));
      return "\"" + HexFormat.of().formatHex(hash, 0, 16) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  /** True when an {@code If-None-Match} header names this tag (or {@code *}). */
  static boolean matches(String ifNoneMatch, String etag) {
    if (ifNoneMatch == null) {
      return false;
    }
    for (String candidate : ifNoneMatch.split(",")) {
      String tag = candidate.trim();
      if (tag.startsWith("W/")) {
        tag = tag.substring(2);
      }
      if (tag.equals("*") || tag.equals(etag)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Answers (body and ETag) by metadata location and mode. A metadata file never changes once
   * written (its name is unique), so neither does its answer: a hot table, or one with many
   * snapshots, is not re-filtered and re-copied, nor its tag hashed again, on every load. Bounded
   * by bytes.
   */
  private static final Cache<String, HttpResult> ANSWERS =
      Caffeine.newBuilder()
          .maximumWeight(128L * 1024 * 1024)
          .<String, HttpResult>weigher((key, answer) -> answer.body().length + key.length())
          // Maintenance on the caller: handing it to the common pool cost a thread wake-up per
          // write on the commit path (bench/notes.md).
          .executor(Runnable::run)
          .build();

  /** The answer for a metadata file already served in this mode, or null. */
  static HttpResult cached(String metadataLocation, SnapshotMode mode) {
    return ANSWERS.getIfPresent(mode + " " + metadataLocation);
  }

  /**
   * @param config the storage settings of the table's location (no secrets): fixed per location, so
   *     the answer can be cached by metadata location
   */
  static HttpResult result(
      String metadataLocation, String metadataJson, SnapshotMode mode, Map<String, String> config) {
    if (metadataLocation == null) {
      return new HttpResult(200, render(null, metadataJson, mode, config, null), Map.of());
    }
    return ANSWERS.get(
        mode + " " + metadataLocation,
        key ->
            new HttpResult(
                200,
                render(metadataLocation, metadataJson, mode, config, null),
                Map.of("ETag", etag(metadataLocation, mode))));
  }

  /**
   * An answer carrying vended credentials: never cached, no ETag (a 304 would keep a client on old
   * credentials), {@code Cache-Control: no-store}.
   */
  static HttpResult withCredentials(
      String metadataLocation,
      String metadataJson,
      SnapshotMode mode,
      Map<String, String> config,
      VendedCredentials credentials) {
    return new HttpResult(
        200,
        render(metadataLocation, metadataJson, mode, config, credentials),
        Map.of("Cache-Control", "no-store"));
  }

  private static byte[] render(
      String metadataLocation,
      String metadataJson,
      SnapshotMode mode,
      Map<String, String> config,
      VendedCredentials credentials) {
    String json = metadataJson;
    if (mode == SnapshotMode.REFS) {
      // Only the snapshots that a branch or tag points at (Iceberg's own suppression).
      TableMetadata metadata = TableMetadataParser.fromJson(metadataLocation, metadataJson);
      json =
          TableMetadataParser.toJson(
              TableMetadata.buildFrom(metadata).suppressHistoricalSnapshots().build());
    }
    return body(metadataLocation, json, config, credentials);
  }

  static byte[] body(String metadataLocation, String metadataJson) {
    return body(metadataLocation, metadataJson, Map.of(), null);
  }

  private static byte[] body(
      String metadataLocation,
      String metadataJson,
      Map<String, String> config,
      VendedCredentials credentials) {
    StringBuilder json = new StringBuilder(metadataJson.length() + 128);
    json.append('{');
    if (metadataLocation != null) {
      json.append("\"metadata-location\":");
      appendQuoted(json, metadataLocation);
      json.append(',');
    }
    json.append("\"metadata\":").append(metadataJson).append(",\"config\":");
    appendObject(json, config);
    if (credentials != null) {
      json.append(",\"storage-credentials\":[{\"prefix\":");
      appendQuoted(json, credentials.prefix());
      json.append(",\"config\":");
      appendObject(json, credentials.config());
      json.append("}]");
    }
    json.append('}');
    return json.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** {@code {"storage-credentials":[…]}}, the answer of the credentials route. */
  static byte[] credentialsBody(VendedCredentials credentials) {
    StringBuilder json = new StringBuilder("{\"storage-credentials\":[");
    if (credentials != null) {
      json.append("{\"prefix\":");
      appendQuoted(json, credentials.prefix());
      json.append(",\"config\":");
      appendObject(json, credentials.config());
      json.append('}');
    }
    return json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void appendObject(StringBuilder json, Map<String, String> map) {
    json.append('{');
    boolean first = true;
    for (Map.Entry<String, String> entry : map.entrySet()) {
      if (!first) {
        json.append(',');
      }
      first = false;
      appendQuoted(json, entry.getKey());
      json.append(':');
      appendQuoted(json, entry.getValue());
    }
    json.append('}');
  }

  private static void appendQuoted(StringBuilder json, String value) {
    json.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20) {
        json.append(String.format("\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    json.append('"');
  }
}
