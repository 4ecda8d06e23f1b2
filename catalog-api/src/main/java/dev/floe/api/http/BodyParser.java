package dev.floe.api.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.FloeJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Reads request bodies with Iceberg's own REST deserialisers. */
final class BodyParser {
  private BodyParser() {}

  static <T> T parse(byte[] json, Class<T> type) throws IOException {
    requireUtf8(json);
    return FloeJson.rest().readValue(json, type);
  }

  /** A body as a JSON tree (management routes). */
  static JsonNode tree(byte[] json) throws IOException {
    requireUtf8(json);
    return FloeJson.mapper().readTree(json);
  }

  /**
   * Strict UTF-8 (RFC 3629): Jackson's decoder accepts overlong forms ({@code C0 AF} for {@code
   * /}), which would let a name carry a character every check of its text saw as something else.
   */
  private static void requireUtf8(byte[] json) throws IOException {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(json));
    } catch (CharacterCodingException e) {
      throw new IOException("not well-formed UTF-8", e);
    }
  }

  /** A short, safe description of a parse failure: no echo of the whole body. */
  static String describe(Exception e) {
    if (e instanceof JsonProcessingException json) {
      return json.getOriginalMessage();
    }
    return String.valueOf(e.getMessage());
  }
}
