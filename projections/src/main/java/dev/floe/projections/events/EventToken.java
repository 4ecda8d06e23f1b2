package dev.floe.projections.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import dev.floe.infra.tokens.SealedTokens;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

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
  private static final SealedTokens TOKENS =
      new SealedTokens("v1.", "floe-events-token-key:", "continuation-token", 64 * 1024);

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
    return TOKENS.seal(secret, FloeJson.toBytes(body));
  }

  /**
   * Reads a token handed out by {@link #encode}.
   *
   * @throws InvalidTokenException when it is malformed, altered, or sealed with another secret
   */
  public static EventToken decode(String token, byte[] secret) {
    byte[] payload;
    try {
      payload = TOKENS.open(secret, token);
    } catch (SealedTokens.InvalidTokenException e) {
      throw new InvalidTokenException(e.getMessage());
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
}
