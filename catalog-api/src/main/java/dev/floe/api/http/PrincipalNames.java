package dev.floe.api.http;

import dev.floe.events.access.AccessEntries;
import java.util.Locale;

/**
 * The syntax of a new principal's name. Names that could be mistaken for another caller are
 * refused: the names the server gives callers that are not principals ({@code anonymous}, {@code
 * unauthenticated}), Floe's own ({@code floe-…}: the purger acts as {@code floe-purger}), names
 * that look alike once blanks at either end are trimmed or control characters are dropped, and
 * {@code *}. A name that differs from an existing one only by case is refused by the processor,
 * which alone knows every existing name.
 */
final class PrincipalNames {
  private PrincipalNames() {}

  static String requireValid(String name) {
    String problem = problem(name);
    if (problem != null) {
      throw ApiException.badRequest("Invalid principal name: %s", problem);
    }
    return name;
  }

  /** Why the name cannot be a principal's, or null when it can. */
  static String problem(String name) {
    if (name == null || name.isEmpty()) {
      return "empty";
    }
    String unsafe = Names.unsafe(name);
    if (unsafe != null) {
      return unsafe;
    }
    if (isBlank(name.codePointAt(0)) || isBlank(name.codePointBefore(name.length()))) {
      return "starts or ends with a blank";
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("anonymous") || lower.equals("unauthenticated")) {
      return name + " is reserved";
    }
    if (lower.startsWith("floe-")) {
      return "names starting with floe- are reserved for Floe itself";
    }
    if (name.equals(AccessEntries.ALL_WAREHOUSES)) {
      return name + " is reserved";
    }
    return null;
  }

  private static boolean isBlank(int codePoint) {
    return Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint);
  }
}
