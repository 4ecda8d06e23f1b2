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
  private Names() {}

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
