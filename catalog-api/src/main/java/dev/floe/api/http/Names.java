package dev.floe.api.http;

import java.util.Collection;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Syntax checks of names and properties in request bodies, before any command is produced: a name
 * that no path could address, or a null where Iceberg expects a string, is a 400.
 */
final class Names {
  /** The longest name, and namespace level, in bytes of UTF-8. */
  static final int MAX_NAME_BYTES = 255;

  private Names() {}

  /**
   * Why text a caller chose as a name cannot be one, or null: it holds a control character (C0,
   * DEL, C1: CR and LF could forge lines wherever it is shown), U+FFFD (what an invalid or overlong
   * UTF-8 sequence decodes to, so two different byte strings would name the same thing), an
   * unpaired surrogate (no UTF-8 for it), or more than {@link #MAX_NAME_BYTES} bytes of UTF-8.
   */
  static String unsafe(String text) {
    int bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c)) {
        return "contains a control character";
      }
      if (c == '\uFFFD') {
        return "contains U+FFFD (an invalid UTF-8 sequence)";
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        return "contains an unpaired surrogate";
      } else {
        bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
      }
    }
    return bytes > MAX_NAME_BYTES ? "longer than " + MAX_NAME_BYTES + " bytes in UTF-8" : null;
  }

  /** Levels must be non-empty and hold neither the path separator {@code %1F} nor a NUL. */
  static Namespace requireValid(Namespace namespace) {
    if (namespace == null || namespace.isEmpty()) {
      throw ApiException.badRequest("Invalid namespace: empty");
    }
    for (String level : namespace.levels()) {
      if (level == null || level.isEmpty()) {
        throw ApiException.badRequest("Invalid namespace %s: empty level", namespace);
      }
      if (level.indexOf(RequestContext.NAMESPACE_SEPARATOR.charAt(0)) >= 0
          || level.indexOf('\0') >= 0) {
        throw ApiException.badRequest("Invalid namespace level: contains a control character");
      }
    }
    return namespace;
  }

  static String requireValidName(String name) {
    if (name == null || name.isEmpty()) {
      throw ApiException.badRequest("Invalid name: empty");
    }
    if (name.indexOf('\0') >= 0) {
      throw ApiException.badRequest("Invalid name: contains NUL");
    }
    return name;
  }

  static TableIdentifier requireValid(TableIdentifier identifier) {
    if (identifier == null) {
      throw ApiException.badRequest("Invalid identifier: missing");
    }
    requireValid(identifier.namespace());
    requireValidName(identifier.name());
    return identifier;
  }

  static Map<String, String> requireNoNulls(Map<String, String> properties) {
    if (properties != null) {
      properties.forEach(
          (key, value) -> {
            if (key == null || value == null) {
              throw ApiException.badRequest("Invalid property %s: null key or value", key);
            }
          });
    }
    return properties;
  }

  static <T extends Collection<String>> T requireNoNulls(T keys) {
    if (keys != null && keys.stream().anyMatch(k -> k == null)) {
      throw ApiException.badRequest("Invalid property key: null");
    }
    return keys;
  }
}
