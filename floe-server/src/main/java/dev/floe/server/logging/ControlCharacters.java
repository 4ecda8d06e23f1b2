package dev.floe.server.logging;

/**
 * Writes text that may hold a caller's input (a name, a path, a message) so that it cannot start a
 * new line or move the cursor where it is shown: CR, LF and tab as {@code \r}, {@code \n}, {@code
 * \t}; every other C0 control, DEL, C1 control and the Unicode line and paragraph separators as
 * {@code \}{@code uXXXX}. Anything else is kept as it is.
 */
public final class ControlCharacters {
  private ControlCharacters() {}

  public static String escape(String text) {
    if (text == null || !needsEscaping(text)) {
      return text;
    }
    StringBuilder escaped = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\r' -> escaped.append("\\r");
        case '\n' -> escaped.append("\\n");
        case '\t' -> escaped.append("\\t");
        default -> {
          if (isEscaped(c)) {
            escaped.append(String.format("\\u%04X", (int) c));
          } else {
            escaped.append(c);
          }
        }
      }
    }
    return escaped.toString();
  }

  private static boolean needsEscaping(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (isEscaped(text.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isEscaped(char c) {
    return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
  }
}
