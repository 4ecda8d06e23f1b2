package dev.floe.projections.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The continuation token of the events endpoint: where the reader is in {@code floe.events} (the
 * next offset of every partition), for which warehouse and which filters, sealed with the secret
 * the instances share, so it works on any instance and across restarts, and a token that was
 * altered or made up is refused rather than read from. The caller cannot read it.
 *
 * @param warehouse the warehouse whose events it pages through
 * @param filters the digest of the filters it was issued for ({@link EventFilter#digest})
 * @param positions the next offset to read, by partition
 */
public record EventToken(String warehouse, String filters, List<Long> positions) {
  private static final int VERSION = 1;
  private static final String PREFIX = "v1.";
  private static final int PAD = 64;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  public EventToken {
    positions = List.copyOf(positions);
  }

  /** A token that cannot be read: altered, made up, or issued for something else. */
  public static final class InvalidTokenException extends RuntimeException {
    public InvalidTokenException(String message) {
      super(message);
    }
  }

  /**
   * The token as the endpoint hands it out: the payload padded to a multiple of 64 bytes and
   * encrypted with AES-GCM under a key derived from the instances' secret, so it reads as nothing
   * (not how far the log has grown, nor which partition an object's events are on) and any change
   * to it is detected.
   */
  public String encode(byte[] secret) {
    ObjectNode body = FloeJson.mapper().createObjectNode();
    body.put("v", VERSION);
    body.put("w", warehouse);
    body.put("f", filters);
    ArrayNode offsets = body.putArray("p");
    // Fixed width, so a token's length never tells how far the log has grown.
    positions.forEach(offset -> offsets.add(String.format("%019d", offset)));
    byte[] json = FloeJson.toBytes(body);
    byte[] padded = Arrays.copyOf(json, (json.length / PAD + 1) * PAD);
    Arrays.fill(padded, json.length, padded.length, (byte) ' ');
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    byte[] sealed = cipher(Cipher.ENCRYPT_MODE, secret, nonce, padded);
    byte[] token = Arrays.copyOf(nonce, NONCE_BYTES + sealed.length);
    System.arraycopy(sealed, 0, token, NONCE_BYTES, sealed.length);
    return PREFIX + ENCODER.encodeToString(token);
  }

  /**
   * Reads a token handed out by {@link #encode}.
   *
   * @throws InvalidTokenException when it is malformed, altered, or sealed with another secret
   */
  public static EventToken decode(String token, byte[] secret) {
    if (!token.startsWith(PREFIX) || token.length() > 64 * 1024) {
      throw new InvalidTokenException("Malformed continuation-token");
    }
    byte[] bytes;
    try {
      bytes = DECODER.decode(token.substring(PREFIX.length()));
    } catch (IllegalArgumentException e) {
      throw new InvalidTokenException("Malformed continuation-token");
    }
    if (bytes.length < NONCE_BYTES + TAG_BITS / 8) {
      throw new InvalidTokenException("Malformed continuation-token");
    }
    byte[] payload;
    try {
      payload =
          cipher(
              Cipher.DECRYPT_MODE,
              secret,
              Arrays.copyOf(bytes, NONCE_BYTES),
              Arrays.copyOfRange(bytes, NONCE_BYTES, bytes.length));
    } catch (IllegalStateException e) {
      throw new InvalidTokenException(
          "The continuation-token was not issued by this catalog, or was altered");
    }
    JsonNode body;
    try {
      body = FloeJson.mapper().readTree(payload);
    } catch (IOException e) {
      throw new InvalidTokenException("Malformed continuation-token");
    }
    if (body == null || body.path("v").asInt() != VERSION || !body.path("p").isArray()) {
      throw new InvalidTokenException("Unknown continuation-token version");
    }
    List<Long> positions = new ArrayList<>();
    for (JsonNode offset : body.path("p")) {
      long position;
      try {
        position = Long.parseLong(offset.asText());
      } catch (NumberFormatException e) {
        throw new InvalidTokenException("Malformed continuation-token");
      }
      if (position < 0) {
        throw new InvalidTokenException("Malformed continuation-token");
      }
      positions.add(position);
    }
    return new EventToken(body.path("w").asText(), body.path("f").asText(), positions);
  }

  private static byte[] cipher(int mode, byte[] secret, byte[] nonce, byte[] input) {
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(mode, key(secret), new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(PREFIX.getBytes(StandardCharsets.UTF_8));
      return cipher.doFinal(input);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "Cannot " + (mode == Cipher.ENCRYPT_MODE ? "seal" : "open") + " a continuation-token", e);
    }
  }

  /** The token key: derived from the instances' secret, for this use only. */
  private static SecretKeySpec key(byte[] secret) throws GeneralSecurityException {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    sha.update("floe-events-token-key:".getBytes(StandardCharsets.UTF_8));
    return new SecretKeySpec(sha.digest(secret), "AES");
  }
}
