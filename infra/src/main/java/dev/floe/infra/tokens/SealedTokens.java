package dev.floe.infra.tokens;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opaque tokens the catalog hands out and reads back (continuation tokens, plan tasks): a payload
 * padded to a multiple of 64 bytes and encrypted with AES-GCM under a key derived from the secret
 * the instances share and the token's use, so a token works on any instance and across restarts,
 * reads as nothing to its holder, and any change to it, or a token of another use, is refused.
 */
public final class SealedTokens {
  private static final int PAD = 64;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final String prefix;
  private final String use;
  private final String name;
  private final int maxLength;

  /**
   * @param prefix what every token of this kind starts with (also authenticated)
   * @param use the label its key is derived with, one per kind of token
   * @param name what the token is called in error messages
   * @param maxLength the longest token read back, in characters
   */
  public SealedTokens(String prefix, String use, String name, int maxLength) {
    this.prefix = prefix;
    this.use = use;
    this.name = name;
    this.maxLength = maxLength;
  }

  /** A token that cannot be read: altered, made up, or issued for something else. */
  public static final class InvalidTokenException extends RuntimeException {
    public InvalidTokenException(String message) {
      super(message);
    }
  }

  /** The payload sealed: padded with spaces (a JSON payload stays JSON) and encrypted. */
  public String seal(byte[] secret, byte[] payload) {
    byte[] padded = Arrays.copyOf(payload, (payload.length / PAD + 1) * PAD);
    Arrays.fill(padded, payload.length, padded.length, (byte) ' ');
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    byte[] sealed = cipher(Cipher.ENCRYPT_MODE, secret, nonce, padded);
    byte[] token = Arrays.copyOf(nonce, NONCE_BYTES + sealed.length);
    System.arraycopy(sealed, 0, token, NONCE_BYTES, sealed.length);
    return prefix + ENCODER.encodeToString(token);
  }

  /**
   * The padded payload of a token handed out by {@link #seal}.
   *
   * @throws InvalidTokenException when it is malformed, altered, or sealed with another secret or
   *     for another use
   */
  public byte[] open(byte[] secret, String token) {
    if (token == null || !token.startsWith(prefix) || token.length() > maxLength) {
      throw new InvalidTokenException("Malformed " + name);
    }
    byte[] bytes;
    try {
      bytes = DECODER.decode(token.substring(prefix.length()));
    } catch (IllegalArgumentException e) {
      throw new InvalidTokenException("Malformed " + name);
    }
    if (bytes.length < NONCE_BYTES + TAG_BITS / 8) {
      throw new InvalidTokenException("Malformed " + name);
    }
    try {
      return cipher(
          Cipher.DECRYPT_MODE,
          secret,
          Arrays.copyOf(bytes, NONCE_BYTES),
          Arrays.copyOfRange(bytes, NONCE_BYTES, bytes.length));
    } catch (IllegalStateException e) {
      throw new InvalidTokenException(
          "The " + name + " was not issued by this catalog, or was altered");
    }
  }

  private byte[] cipher(int mode, byte[] secret, byte[] nonce, byte[] input) {
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(mode, key(secret), new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(prefix.getBytes(StandardCharsets.UTF_8));
      return cipher.doFinal(input);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "Cannot " + (mode == Cipher.ENCRYPT_MODE ? "seal" : "open") + " a " + name, e);
    }
  }

  /** The key of this kind of token: derived from the instances' secret, for this use only. */
  private SecretKeySpec key(byte[] secret) throws GeneralSecurityException {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    sha.update(use.getBytes(StandardCharsets.UTF_8));
    return new SecretKeySpec(sha.digest(secret), "AES");
  }
}
