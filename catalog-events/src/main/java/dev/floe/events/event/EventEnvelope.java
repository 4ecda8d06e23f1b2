package dev.floe.events.event;

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

  public static EventEnvelope fromBytes(byte[] bytes) {
    ObjectMapper mapper = FloeJson.mapper();
    try {
      JsonNode node = mapper.readTree(bytes);
      if (!SPEC_VERSION.equals(node.path("specversion").asText())) {
        throw new IllegalArgumentException("Not a CloudEvents 1.0 envelope");
      }
      Class<? extends CatalogEvent> type = EventTypes.classOf(node.path("type").asText());
      CatalogEvent data = mapper.treeToValue(node.get("data"), type);
      return new EventEnvelope(
          node.path("id").asText(), node.path("source").asText(), node.path("time").asText(), data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
