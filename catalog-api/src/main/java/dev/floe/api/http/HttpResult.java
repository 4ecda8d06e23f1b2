package dev.floe.api.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.floe.events.FloeJson;
import java.util.Map;

/** What a handler answers: a status, an optional JSON body, extra headers. */
public record HttpResult(int status, byte[] body, Map<String, String> headers) {
  public static HttpResult json(Object response) {
    try {
      return new HttpResult(200, FloeJson.rest().writeValueAsBytes(response), Map.of());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot serialise " + response.getClass().getSimpleName(), e);
    }
  }

  public static HttpResult raw(byte[] json) {
    return new HttpResult(200, json, Map.of());
  }

  /**
   * The handler has written the answer itself, as a stream, and ended it (an event stream): the
   * router only records the outcome.
   */
  public static final HttpResult STREAMED = new HttpResult(200, null, Map.of());

  public static HttpResult noContent() {
    return new HttpResult(204, null, Map.of());
  }
}
