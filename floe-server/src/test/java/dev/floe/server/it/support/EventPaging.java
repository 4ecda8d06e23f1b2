package dev.floe.server.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntSupplier;

/** Paging through the events endpoint in tests, as a client does: token to token, to the end. */
public final class EventPaging {
  private EventPaging() {}

  /** Everything read, and the last (empty) page, whose token is where new events will come. */
  public record Paged(List<JsonNode> events, JsonNode last) {
    public String lastToken() {
      return last.path("continuation-token").asText();
    }
  }

  /**
   * Pages from {@code from} (null: the start) until an empty page.
   *
   * @param page sends one request body and returns the answer (and checks it as the test wishes)
   * @param filter the request's filters, a JSON object
   * @param size each page's size
   */
  public static Paged all(
      Function<String, JsonNode> page, String filter, String from, IntSupplier size) {
    List<JsonNode> events = new ArrayList<>();
    String continuation = from;
    for (int guard = 0; guard < 100_000; guard++) {
      JsonNode answer = page.apply(body(filter, size.getAsInt(), continuation));
      continuation = answer.path("continuation-token").asText();
      if (answer.path("events").isEmpty()) {
        return new Paged(events, answer);
      }
      answer.path("events").forEach(events::add);
    }
    throw new AssertionError("paging did not end");
  }

  /** A request body: the filter's fields, {@code page-size} and the token when there is one. */
  public static String body(String filter, int size, String token) {
    ObjectNode body;
    try {
      body = (ObjectNode) AuthHttp.JSON.readTree(filter);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    body.put("page-size", size);
    if (token != null) {
      body.put("continuation-token", token);
    }
    return body.toString();
  }
}
