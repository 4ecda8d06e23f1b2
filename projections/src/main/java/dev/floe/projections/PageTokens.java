package dev.floe.projections;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Page tokens are the last key served, base64url-encoded: opaque to clients, stable across
 * restarts.
 */
final class PageTokens {
  private PageTokens() {}

  static String encode(String lastKey) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(lastKey.getBytes(StandardCharsets.UTF_8));
  }

  static String decode(String token) {
    try {
      return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Invalid page token: " + token, e);
    }
  }
}
