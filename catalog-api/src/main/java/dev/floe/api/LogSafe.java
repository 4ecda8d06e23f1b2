package dev.floe.api;

/** A value from a client, with control characters escaped, so it cannot forge log lines. */
final class LogSafe {
  private LogSafe() {}

  static String of(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
