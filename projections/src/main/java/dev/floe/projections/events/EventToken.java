package dev.floe.projections.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The continuation token of the events endpoint: where the reader is in {@code floe.events} (the
 * next offset of every partition), for which warehouse and which filters, signed with the secret
 * the instances share, so it works on any instance and across restarts, and a token that was
 * altered or made up is refused rather than read from.
 *
 * @param warehouse the warehouse whose events it pages through
 * @param filters the digest of the filters it was issued for ({@link EventFilter#digest})
 * @param positions the next offset to read, by partition
 */
public record EventToken(String warehouse, String filters, List<Long> positions) {
  private static final int VERSION = 1;
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

  /** The token as the endpoint hands it out: payload and signature, both base64url. */
  public String encode(byte[] key) {
    ObjectNode body = FloeJson.mapper().createObjectNode();
    body.put("v", VERSION);
    body.put("w", warehouse);
    body.put("f", filters);
    ArrayNode offsets = body.putArray("p");
    positions.forEach(offsets::add);
    byte[] payload = FloeJson.toBytes(body);
    return ENCODER.encodeToString(payload) + "." + ENCODER.encodeToString(sign(payload, key));
  }

  /**
   * Reads a token handed out by {@link #encode}.
   *
   * @throws InvalidTokenException when it is malformed or its signature does not match
   */
  public static EventToken decode(String token, byte[] key) {
    int dot = token.indexOf('.');
    if (dot <= 0 || dot != token.lastIndexOf('.') || token.length() > 64 * 1024) {
      throw new InvalidTokenException("Malformed continuation-token");
    }
    byte[] payload;
    byte[] signature;
    try {
      payload = DECODER.decode(token.substring(0, dot));
      signature = DECODER.decode(token.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      throw new InvalidTokenException("Malformed continuation-token");
    }
    if (!MessageDigest.isEqual(sign(payload, key), signature)) {
      throw new InvalidTokenException(
          "The continuation-token was not issued by this catalog, or was altered");
    }
    JsonNode body;
    try {
      body = FloeJson.mapper().readTree(payload);
    } catch (IOException e) {
      throw new InvalidTokenException("Malformed continuation-token");
    }
    if (body.path("v").asInt() != VERSION || !body.path("p").isArray()) {
      throw new InvalidTokenException("Unknown continuation-token version");
    }
    List<Long> positions = new ArrayList<>();
    for (JsonNode offset : body.path("p")) {
      if (!offset.canConvertToLong() || offset.asLong() < 0) {
        throw new InvalidTokenException("Malformed continuation-token");
      }
      positions.add(offset.asLong());
    }
    return new EventToken(body.path("w").asText(), body.path("f").asText(), positions);
  }

  private static byte[] sign(byte[] payload, byte[] key) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update("floe-events-token:".getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(payload);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
