package dev.floe.infra.storage.vending;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The credential access boundary of a downscoped GCS token: per bucket, object access only where
 * the object's name starts with one of the table's prefixes, and listing only with such a prefix.
 * Names are CEL string literals, escaped; every prefix ends in {@code /}, so table {@code t} never
 * reaches {@code t2/}.
 */
public final class GcsAccessBoundary {
  static final String READ_ROLE = "inRole:roles/storage.objectViewer";
  static final String WRITE_ROLE = "inRole:roles/storage.objectAdmin";

  private static final ObjectMapper JSON = new ObjectMapper();

  private GcsAccessBoundary() {}

  public static String build(List<String> locations, AccessLevel access) {
    Map<String, List<String>> prefixesByBucket = new LinkedHashMap<>();
    for (String location : locations) {
      if (!location.startsWith("gs://")) {
        throw new IllegalArgumentException("Not a GCS location: " + location);
      }
      String rest = location.substring("gs://".length());
      int slash = rest.indexOf('/');
      String bucket = slash < 0 ? rest : rest.substring(0, slash);
      String key = slash < 0 ? "" : rest.substring(slash + 1);
      while (key.endsWith("/")) {
        key = key.substring(0, key.length() - 1);
      }
      if (bucket.isEmpty()) {
        throw new IllegalArgumentException("No bucket in " + location);
      }
      for (String segment : key.split("/", -1)) {
        if (!key.isEmpty() && (segment.isEmpty() || segment.equals(".") || segment.equals(".."))) {
          throw new IllegalArgumentException(
              "Cannot vend credentials for " + location + ": empty or relative path segment");
        }
      }
      prefixesByBucket
          .computeIfAbsent(bucket, b -> new ArrayList<>())
          .add(key.isEmpty() ? "" : key + "/");
    }
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    ArrayNode rules = root.putObject("accessBoundary").putArray("accessBoundaryRules");
    for (Map.Entry<String, List<String>> bucket : prefixesByBucket.entrySet()) {
      ObjectNode rule = rules.addObject();
      rule.put(
          "availableResource", "//storage.googleapis.com/projects/_/buckets/" + bucket.getKey());
      ArrayNode permissions = rule.putArray("availablePermissions");
      permissions.add(access == AccessLevel.READ_WRITE ? WRITE_ROLE : READ_ROLE);
      rule.putObject("availabilityCondition")
          .put("title", "floe-table-prefix")
          .put("expression", condition(bucket.getKey(), bucket.getValue()));
    }
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write an access boundary", e);
    }
  }

  private static String condition(String bucket, List<String> prefixes) {
    List<String> clauses = new ArrayList<>();
    for (String prefix : prefixes) {
      clauses.add(
          "resource.name.startsWith("
              + literal("projects/_/buckets/" + bucket + "/objects/" + prefix)
              + ")");
      clauses.add(
          "api.getAttribute('storage.googleapis.com/objectListPrefix', '').startsWith("
              + literal(prefix)
              + ")");
    }
    return String.join(" || ", clauses);
  }

  /** A CEL single-quoted string literal: backslash, quote and control characters escaped. */
  static String literal(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('\'');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\'' -> out.append("\\'");
        case '"' -> out.append("\\\"");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            out.append(String.format("\\x%02x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('\'').toString();
  }
}
