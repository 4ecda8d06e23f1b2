package dev.floe.api.http;

import dev.floe.events.access.AccessEntries;
import java.text.Normalizer;
import java.util.Locale;

/**
 * The syntax of a new principal's name. Names that could be mistaken for another caller are
 * refused: the names the server gives callers that are not principals ({@code anonymous}, {@code
 * unauthenticated}), Floe's own ({@code floe-…}: the purger acts as {@code floe-purger}), names
 * that look alike once blanks at either end are trimmed or control characters are dropped, and
 * {@code *}. A name is made of letters, combining marks and digits of one script, and {@code . _
 * - @ +} and inner spaces, and is its own NFKC form: no invisible characters (U+200B), no
 * full-width or other compatibility forms ({@code ａｄｍｉｎ}), no Latin and Cyrillic letters mixed. A
 * name that differs from an existing one only by case or NFKC form is refused by the processor,
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
    if (!Normalizer.normalize(name, Normalizer.Form.NFKC).equals(name)) {
      return "not in Unicode NFKC form (full-width or other compatibility characters)";
    }
    String outside = outsideSafeSet(name);
    if (outside != null) {
      return outside;
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

  /**
   * Why the name holds a character outside letters, marks and digits, {@code . _ - @ +} and the
   * space, or letters of more than one script; null when it does not.
   */
  private static String outsideSafeSet(String name) {
    Character.UnicodeScript script = null;
    for (int i = 0; i < name.length(); ) {
      int c = name.codePointAt(i);
      i += Character.charCount(c);
      if (Character.isLetter(c)) {
        Character.UnicodeScript own = Character.UnicodeScript.of(c);
        if (script != null && own != script) {
          return "letters of more than one script";
        }
        script = own;
      } else if (!(Character.isDigit(c)
          || Character.getType(c) == Character.NON_SPACING_MARK
          || Character.getType(c) == Character.COMBINING_SPACING_MARK
          || ".-_@+ ".indexOf(c) >= 0)) {
        return String.format("U+%04X is not allowed (letters, digits, . _ - @ + and spaces)", c);
      }
    }
    return null;
  }

  private static boolean isBlank(int codePoint) {
    return Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint);
  }
}
