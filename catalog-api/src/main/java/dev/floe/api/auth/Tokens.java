package dev.floe.api.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Floe API tokens: {@code floe_} and 32 random bytes (base64url). Only the SHA-256 hash is ever
 * stored or sent to the processor; the token itself is shown once, to whoever created it.
 */
public final class Tokens {
  public static final String PREFIX = "floe_";
  private static final SecureRandom RANDOM = new SecureRandom();

  private Tokens() {}

  public static String newToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** 32 random bytes (base64url) for a secret that is not a principal's token. */
  public static String newSecret() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** A token's public handle, for listing and revoking. */
  public static String newTokenId() {
    byte[] bytes = new byte[8];
    RANDOM.nextBytes(bytes);
    return "tok-" + HexFormat.of().formatHex(bytes);
  }

  public static String hash(String token) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
