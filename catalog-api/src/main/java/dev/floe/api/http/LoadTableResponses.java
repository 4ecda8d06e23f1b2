package dev.floe.api.http;

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
   * Response bodies by metadata location and mode. A metadata file never changes once written (its
   * name is unique), so neither does its body: a hot table, or one with many snapshots, is not
   * re-filtered and re-copied on every load. Bounded by bytes.
   */
  private static final com.github.benmanes.caffeine.cache.Cache<String, byte[]> BODIES =
      com.github.benmanes.caffeine.cache.Caffeine.newBuilder()
          .maximumWeight(128L * 1024 * 1024)
          .<String, byte[]>weigher((key, body) -> body.length + key.length())
          .build();

  /** The answer for a metadata file already served in this mode, or null. */
  static HttpResult cached(String metadataLocation, SnapshotMode mode) {
    byte[] body = BODIES.getIfPresent(mode + " " + metadataLocation);
    return body == null
        ? null
        : new HttpResult(200, body, Map.of("ETag", etag(metadataLocation, mode)));
  }

  static HttpResult result(String metadataLocation, String metadataJson, SnapshotMode mode) {
    if (metadataLocation == null) {
      return new HttpResult(200, render(null, metadataJson, mode), Map.of());
    }
    byte[] body =
        BODIES.get(
            mode + " " + metadataLocation, key -> render(metadataLocation, metadataJson, mode));
    return new HttpResult(200, body, Map.of("ETag", etag(metadataLocation, mode)));
  }

  private static byte[] render(String metadataLocation, String metadataJson, SnapshotMode mode) {
    String json = metadataJson;
    if (mode == SnapshotMode.REFS) {
      // Only the snapshots that a branch or tag points at (Iceberg's own suppression).
      TableMetadata metadata = TableMetadataParser.fromJson(metadataLocation, metadataJson);
      json =
          TableMetadataParser.toJson(
              TableMetadata.buildFrom(metadata).suppressHistoricalSnapshots().build());
    }
    return body(metadataLocation, json);
  }

  static byte[] body(String metadataLocation, String metadataJson) {
    StringBuilder json = new StringBuilder(metadataJson.length() + 128);
    json.append('{');
    if (metadataLocation != null) {
      json.append("\"metadata-location\":");
      appendQuoted(json, metadataLocation);
      json.append(',');
    }
    json.append("\"metadata\":").append(metadataJson).append(",\"config\":{}}");
    return json.toString().getBytes(StandardCharsets.UTF_8);
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
