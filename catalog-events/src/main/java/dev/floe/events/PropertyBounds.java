package dev.floe.events;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;

/**
 * Counts the properties a request body sets or removes, and their bytes, before Iceberg builds the
 * request: past {@link RestRequestLimits#MAX_PROPERTIES_PER_REQUEST} or {@link
 * RestRequestLimits#MAX_PROPERTY_BYTES_PER_REQUEST} the body fails to parse (400).
 */
final class PropertyBounds {
  private int count;
  private long bytes;

  private PropertyBounds() {}

  /** A namespace or table create, a namespace update: maps of properties set, lists removed. */
  static BeanDeserializerModifier modifier() {
    return new BeanDeserializerModifier() {
      @Override
      public JsonDeserializer<?> modifyDeserializer(
          DeserializationConfig config, BeanDescription description, JsonDeserializer<?> found) {
        Class<?> type = description.getBeanClass();
        if (CreateNamespaceRequest.class.isAssignableFrom(type)
            || CreateTableRequest.class.isAssignableFrom(type)
            || CreateViewRequest.class.isAssignableFrom(type)) {
          return new Bounded(found, List.of("properties"), List.of());
        }
        if (UpdateNamespacePropertiesRequest.class.isAssignableFrom(type)) {
          return new Bounded(found, List.of("updates"), List.of("removals"));
        }
        return found;
      }
    };
  }

  /**
   * The properties one table's commit sets and removes ({@code set-properties} and {@code
   * remove-properties} updates, all of them together).
   */
  static void requireWithinCommit(JsonParser parser, JsonNode commit) throws JsonMappingException {
    JsonNode updates = commit == null ? null : commit.get("updates");
    if (updates == null || !updates.isArray()) {
      return;
    }
    PropertyBounds bounds = new PropertyBounds();
    for (JsonNode update : updates) {
      String action = update.path("action").asText("");
      if (action.equals("set-properties")) {
        bounds.addMap(update.get("updates"));
      } else if (action.equals("remove-properties")) {
        bounds.addKeys(update.get("removals"));
      }
    }
    bounds.require(parser);
  }

  private void addMap(JsonNode map) {
    if (map == null || !map.isObject()) {
      return;
    }
    Iterator<Map.Entry<String, JsonNode>> fields = map.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      count++;
      bytes += utf8(field.getKey());
      bytes += utf8(field.getValue().isTextual() ? field.getValue().asText() : "");
    }
  }

  private void addKeys(JsonNode keys) {
    if (keys == null || !keys.isArray()) {
      return;
    }
    for (JsonNode key : keys) {
      count++;
      bytes += utf8(key.asText(""));
    }
  }

  private void require(JsonParser parser) throws JsonMappingException {
    if (count > RestRequestLimits.MAX_PROPERTIES_PER_REQUEST) {
      throw JsonMappingException.from(
          parser,
          String.format(
              "Too many properties set or removed in one request: %d (at most %d)",
              count, RestRequestLimits.MAX_PROPERTIES_PER_REQUEST));
    }
    if (bytes > RestRequestLimits.MAX_PROPERTY_BYTES_PER_REQUEST) {
      throw JsonMappingException.from(
          parser,
          String.format(
              "Properties set or removed in one request are too large: %d bytes (at most %d)",
              bytes, RestRequestLimits.MAX_PROPERTY_BYTES_PER_REQUEST));
    }
  }

  private static long utf8(String text) {
    return text.length() < 64 && text.chars().allMatch(c -> c < 0x80)
        ? text.length()
        : text.getBytes(StandardCharsets.UTF_8).length;
  }

  /** Checks the named fields of the body, then hands it to the deserialiser found for its type. */
  private static final class Bounded extends DelegatingDeserializer {
    private final List<String> maps;
    private final List<String> keyLists;

    Bounded(JsonDeserializer<?> delegate, List<String> maps, List<String> keyLists) {
      super(delegate);
      this.maps = maps;
      this.keyLists = keyLists;
    }

    @Override
    protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
      return new Bounded(delegate, maps, keyLists);
    }

    @Override
    public Object deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      JsonNode body = context.readTree(parser);
      PropertyBounds bounds = new PropertyBounds();
      maps.forEach(field -> bounds.addMap(body.get(field)));
      keyLists.forEach(field -> bounds.addKeys(body.get(field)));
      bounds.require(parser);
      try (JsonParser tree = body.traverse(parser.getCodec())) {
        tree.nextToken();
        return _delegatee.deserialize(tree, context);
      }
    }
  }
}
