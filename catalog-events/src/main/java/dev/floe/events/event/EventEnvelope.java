package dev.floe.events.event;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Objects;

/**
 * A CloudEvents 1.0 structured-mode JSON envelope around a {@link CatalogEvent}.
 *
 * @param id unique per source: {@code <commandId>:<index of the event within the command>}
 * @param source {@code /floe/warehouses/<warehouse>}
 * @param time the time the command was accepted, so a reprocessed command yields the same event
 */
public record EventEnvelope(String id, String source, String time, CatalogEvent data) {
  public static final String SPEC_VERSION = "1.0";
  public static final String CONTENT_TYPE = "application/json";

  public EventEnvelope {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(data, "data");
  }

  public static EventEnvelope wrap(CatalogEvent event, int index, long timestampMillis) {
    return new EventEnvelope(
        event.commandId() + ":" + index,
        "/floe/warehouses/" + event.warehouse(),
        Instant.ofEpochMilli(timestampMillis).toString(),
        event);
  }

  public String type() {
    return data.type();
  }

  public String subject() {
    return data.subject();
  }

  public byte[] toBytes() {
    ObjectMapper mapper = FloeJson.mapper();
    ObjectNode node = mapper.createObjectNode();
    node.put("specversion", SPEC_VERSION);
    node.put("id", id);
    node.put("source", source);
    node.put("type", type());
    node.put("subject", subject());
    node.put("time", time);
    node.put("datacontenttype", CONTENT_TYPE);
    node.set("data", mapper.valueToTree(data));
    try {
      return mapper.writeValueAsBytes(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Decodes an envelope in one pass over the bytes: when {@code type} comes before {@code data} (as
   * {@link #toBytes} writes it), {@code data} is bound straight from the stream; otherwise it is
   * read into a tree first. A replay decodes every event of the log, and an intermediate tree of
   * the whole envelope was a large part of its time.
   */
  public static EventEnvelope fromBytes(byte[] bytes) {
    ObjectMapper mapper = FloeJson.mapper();
    try (JsonParser parser = mapper.getFactory().createParser(bytes)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("Not a CloudEvents 1.0 envelope");
      }
      String specVersion = null;
      String id = "";
      String source = "";
      String time = "";
      String type = "";
      CatalogEvent data = null;
      JsonNode dataTree = null;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        switch (field) {
          case "specversion" -> specVersion = text(parser, value);
          case "id" -> id = text(parser, value);
          case "source" -> source = text(parser, value);
          case "time" -> time = text(parser, value);
          case "type" -> type = text(parser, value);
          case "data" -> {
            if (SPEC_VERSION.equals(specVersion) && !type.isEmpty()) {
              data = mapper.readValue(parser, EventTypes.classOf(type));
              dataTree = null;
            } else {
              dataTree = mapper.readTree(parser);
              data = null;
            }
          }
          default -> parser.skipChildren();
        }
      }
      if (!SPEC_VERSION.equals(specVersion)) {
        throw new IllegalArgumentException("Not a CloudEvents 1.0 envelope");
      }
      if (data == null) {
        data = mapper.treeToValue(dataTree, EventTypes.classOf(type));
      }
      return new EventEnvelope(id, source, time, data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A scalar as {@code JsonNode.asText()} gives it; "" for an object, an array or null. */
  private static String text(JsonParser parser, JsonToken value) throws IOException {
    if (value.isScalarValue() && value != JsonToken.VALUE_NULL) {
      return parser.getValueAsString("");
    }
    parser.skipChildren();
    return value == JsonToken.VALUE_NULL ? "null" : "";
  }
}
