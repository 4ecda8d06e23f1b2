package dev.floe.api.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.floe.events.FloeJson;
import java.io.IOException;

/** Reads request bodies with Iceberg's own REST deserialisers. */
final class BodyParser {
  private BodyParser() {}

  static <T> T parse(byte[] json, Class<T> type) throws IOException {
    return FloeJson.rest().readValue(json, type);
  }

  /** A short, safe description of a parse failure: no echo of the whole body. */
  static String describe(Exception e) {
    if (e instanceof JsonProcessingException json) {
      return json.getOriginalMessage();
    }
    return String.valueOf(e.getMessage());
  }
}
