package dev.floe.api.http;

import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RegisterViewRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * Syntax checks of names, in paths and in request bodies, and of properties, before any command is
 * produced: a name that no path could address, that could forge a line where it is shown, or that
 * two different byte strings could spell, or a null where Iceberg expects a string, is a 400.
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

  /**
   * Why a table, view or namespace-level name cannot be one, or null: empty, {@code .} or {@code
   * ..} (which paths and file systems read as "here" and "up"; also when sent percent-encoded), or
   * {@link #unsafe}. Other dots and slashes are fine: Iceberg allows them and paths encode them.
   */
  static String problem(String name) {
    if (name == null || name.isEmpty()) {
      return "empty";
    }
    if (name.equals(".") || name.equals("..")) {
      return "'" + name + "' is not a name";
    }
    return unsafe(name);
  }

  /** Every level must be a name ({@link #problem}); 400 otherwise. */
  static Namespace requireValid(Namespace namespace) {
    if (namespace == null || namespace.isEmpty()) {
      throw ApiException.badRequest("Invalid namespace: empty");
    }
    for (String level : namespace.levels()) {
      String problem = problem(level);
      if (problem != null) {
        throw ApiException.badRequest("Invalid namespace level: %s", problem);
      }
    }
    return namespace;
  }

  static String requireValidName(String name) {
    String problem = problem(name);
    if (problem != null) {
      throw ApiException.badRequest("Invalid name: %s", problem);
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

  /**
   * The names a request body brings (what it creates, registers, renames to, or commits to): the
   * same rules as names in paths, checked for every route in one place.
   */
  static void requireValidNames(Object body) {
    if (body instanceof CreateNamespaceRequest create) {
      requireValid(create.namespace());
    } else if (body instanceof CreateTableRequest create) {
      requireValidName(create.name());
    } else if (body instanceof CreateViewRequest create) {
      requireValidName(create.name());
    } else if (body instanceof RegisterTableRequest register) {
      requireValidName(register.name());
    } else if (body instanceof RegisterViewRequest register) {
      requireValidName(register.name());
    } else if (body instanceof RenameTableRequest rename) {
      requireValid(rename.source());
      requireValid(rename.destination());
    } else if (body instanceof UpdateTableRequest update && update.identifier() != null) {
      requireValid(update.identifier());
    } else if (body instanceof CommitTransactionRequest transaction
        && transaction.tableChanges() != null) {
      transaction.tableChanges().stream()
          .map(UpdateTableRequest::identifier)
          .filter(Objects::nonNull)
          .forEach(Names::requireValid);
    }
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
