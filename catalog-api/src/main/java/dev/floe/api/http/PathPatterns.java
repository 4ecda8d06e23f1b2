package dev.floe.api.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.rest.Endpoint;

/**
 * Route templates against raw paths: each segment is decoded on its own, so a name holding an
 * encoded {@code /} ({@code %2F}) stays one segment.
 */
final class PathPatterns {
  private PathPatterns() {}

  /** Whether the segments fit the template ({@code {name}} matches any one segment). */
  static boolean matches(String[] pattern, String[] segments, Map<String, String> params) {
    if (pattern.length != segments.length) {
      return false;
    }
    for (int i = 0; i < pattern.length; i++) {
      String p = pattern[i];
      if (p.startsWith("{")) {
        params.put(p.substring(1, p.length() - 1), segments[i]);
      } else if (!p.equals(segments[i])) {
        return false;
      }
    }
    return true;
  }

  /**
   * The route template of an Iceberg endpoint: its path, with a view's name read from the {@code
   * table} parameter as the view handlers and guards read it.
   */
  static String template(Endpoint endpoint) {
    return endpoint.path().replace("{view}", "{table}");
  }

  static String[] segments(String rawPath) {
    String path = rawPath == null ? "" : rawPath.startsWith("/") ? rawPath.substring(1) : rawPath;
    String[] raw = path.split("/", -1);
    String[] decoded = new String[raw.length];
    for (int i = 0; i < raw.length; i++) {
      try {
        decoded[i] = URLDecoder.decode(raw[i], StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        decoded[i] = raw[i];
      }
    }
    return decoded;
  }

  /**
   * The REST spec's collections, which a client that ignores the config's prefix calls directly.
   */
  private static final Set<String> PREFIXLESS =
      Set.of("namespaces", "tables", "views", "transactions");

  /** {@code /v1/namespaces…} and the like: a path that names no prefix. */
  static boolean isPrefixless(String[] segments) {
    return segments.length >= 2 && segments[0].equals("v1") && PREFIXLESS.contains(segments[1]);
  }

  /** The same path with {@code prefix} after {@code v1}. */
  static String[] withPrefix(String[] segments, String prefix) {
    String[] prefixed = new String[segments.length + 1];
    prefixed[0] = segments[0];
    prefixed[1] = prefix;
    System.arraycopy(segments, 1, prefixed, 2, segments.length - 1);
    return prefixed;
  }
}
