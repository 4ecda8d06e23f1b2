package dev.floe.projections.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

/**
 * Digests that compare a replayed catalog with the live one. A table's digest covers its metadata
 * location and its whole metadata document except two kinds of wall-clock stamp that Iceberg's
 * builder takes when a commit is applied ({@code last-updated-ms} and the timestamps of {@code
 * metadata-log} entries): everything a reader acts on — schemas, specs, snapshots, refs,
 * properties, the metadata log's files — must match.
 */
public final class StateDigests {
  private StateDigests() {}

  public static String table(String metadataLocation, String metadataJson) {
    return table(metadataLocation, TableMetadataParser.fromJson(metadataLocation, metadataJson));
  }

  /** The same digest from parsed metadata (a replayed table's), without a JSON round trip. */
  public static String table(String metadataLocation, TableMetadata metadata) {
    try {
      ObjectNode json =
          (ObjectNode) FloeJson.mapper().readTree(TableMetadataParser.toJson(metadata));
      json.remove("last-updated-ms");
      JsonNode log = json.get("metadata-log");
      if (log instanceof ArrayNode entries) {
        entries.forEach(entry -> ((ObjectNode) entry).remove("timestamp-ms"));
      }
      return sha256(metadataLocation + "\n" + canonical(json));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A view's digest: its metadata location and whole view metadata (which holds no commit-time
   * stamp).
   */
  public static String view(String metadataLocation, String metadataJson) {
    try {
      return sha256(metadataLocation + "\n" + canonical(FloeJson.mapper().readTree(metadataJson)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A namespace's digest: its properties but {@code location}, which the REST API answers from the
   * namespace's storage area when none was set (and the log does not hold).
   */
  public static String namespace(Map<String, String> properties) {
    Map<String, String> compared = new TreeMap<>(properties);
    compared.remove("location");
    return sha256(compared.toString());
  }

  private static String canonical(JsonNode node) throws IOException {
    Object sorted = FloeJson.mapper().treeToValue(node, Object.class);
    return FloeJson.mapper()
        .copy()
        .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
        .writeValueAsString(sorted);
  }

  private static String sha256(String value) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
