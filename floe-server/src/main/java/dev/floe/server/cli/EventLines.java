package dev.floe.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.event.EventTypes;
import dev.floe.infra.config.ConfigKeys;
import dev.floe.projections.events.CatalogObjectEvent;
import dev.floe.server.logging.ControlCharacters;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The events as {@code floe events tail} prints them, whether it reads {@code floe.events} or a
 * server's events endpoint: each event in the endpoint's form ({@link CatalogObjectEvent}), one
 * line per event, named by its operation type ({@code update-table}, {@code x-floe.restore-table}).
 */
final class EventLines implements TailCommand.Lines {
  private final TailOptions options;

  EventLines(TailOptions options) {
    this.options = options;
  }

  @Override
  public Optional<String> line(byte[] value) {
    EventEnvelope envelope = EventEnvelope.fromBytes(value);
    CatalogObjectEvent event = CatalogObjectEvent.of(envelope.data());
    if (!matches(event)) {
      return Optional.empty();
    }
    return Optional.of(
        options.json()
            ? new String(value, StandardCharsets.UTF_8)
            : line(CatalogObjectEvent.json(envelope, event, 1)));
  }

  /**
   * {@code --type}, {@code --table} (any name the event is about: a rename's or a restore's old
   * name too) and {@code --namespace} (where the entity lives afterwards).
   */
  private boolean matches(CatalogObjectEvent event) {
    List<String> names = event.names().stream().map(name -> String.join(".", name)).toList();
    return (options.types().isEmpty() || options.types().contains(event.operationType()))
        && (options.table() == null || names.contains(options.table()))
        && (options.namespace() == null
            || (!names.isEmpty() && options.namespace().equals(namespaceOf(event))));
  }

  private static String namespaceOf(CatalogObjectEvent event) {
    List<String> last = event.names().get(event.names().size() - 1);
    return CatalogObjectEvent.NAMESPACE.equals(event.objectType())
        ? String.join(".", last)
        : String.join(".", last.subList(0, last.size() - 1));
  }

  /**
   * The operation types {@code --type} names: the endpoint's ({@code update-table}), or the log's
   * event types for them ({@code floe.table.committed}). An unknown one is refused, with the
   * closest known one: a misspelt type would match nothing.
   */
  static Set<String> operationTypes(String value) {
    Set<String> types = new TreeSet<>();
    for (String type : value.split(",")) {
      String operation =
          CatalogObjectEvent.OPERATION_TYPES.getOrDefault(type.strip(), type.strip());
      if (!CatalogObjectEvent.OPERATION_TYPES.containsValue(operation)) {
        Set<String> known = new TreeSet<>(CatalogObjectEvent.OPERATION_TYPES.values());
        known.addAll(EventTypes.types());
        String closest = ConfigKeys.closest(type.strip(), known);
        throw new IllegalArgumentException(
            "unknown event type '"
                + type.strip()
                + "'"
                + (closest != null
                    ? " (did you mean " + closest + "?)"
                    : ": the types are "
                        + String.join(
                            ", ", new TreeSet<>(CatalogObjectEvent.OPERATION_TYPES.values()))));
      }
      types.add(operation);
    }
    return types;
  }

  /**
   * One event in the endpoint's form as one line: time, operation type, what it is about, who, its
   * request, and what changed.
   */
  static String line(JsonNode event) {
    JsonNode op = event.path("operation");
    String type = op.path("operation-type").asText();
    List<String> fields = new ArrayList<>();
    fields.add(Output.time(event.path("timestamp-ms").asLong()));
    fields.add(type);
    if (op.has("source")) {
      fields.add(name(op.path("source")) + " -> " + name(op.path("destination")));
    } else if (op.has("identifier")) {
      fields.add(name(op.path("identifier")));
    } else if (op.has("namespace")) {
      fields.add(Output.namespace(op.path("namespace")));
    } else if (op.has("location")) {
      fields.add(op.path("location").asText());
    } else {
      fields.add("-");
    }
    fields.add("by=" + event.path("actor").path("id").asText("?"));
    fields.add("req=" + event.path("request-id").asText());
    fields.addAll(details(type, op));
    // Names, properties and principals hold what callers sent: one event, one line.
    return ControlCharacters.escape(String.join("  ", fields));
  }

  /** What changed, beyond the name: the table updates, the purge, the properties, the access. */
  private static List<String> details(String type, JsonNode op) {
    List<String> fields = new ArrayList<>();
    if (type.startsWith("update-") && op.has("updates")) {
      List<String> actions = new ArrayList<>();
      op.path("updates").forEach(u -> actions.add(u.path("action").asText("?")));
      fields.add("updates=" + String.join(",", actions));
    }
    if (op.path("purge").asBoolean()) {
      fields.add("purge=true");
    }
    if (op.has("x-floe-recoverable-until-ms")) {
      fields.add("kept-until=" + Output.time(op.path("x-floe-recoverable-until-ms").asLong()));
    }
    if (type.startsWith("x-floe.restore-") || type.startsWith("x-floe.expunge-")) {
      for (String uuid : List.of("table-uuid", "view-uuid")) {
        if (op.has(uuid)) {
          fields.add("uuid=" + op.path(uuid).asText());
        }
      }
    }
    if (op.has("properties") && !op.path("properties").isEmpty()) {
      Map<String, String> properties = new TreeMap<>();
      op.path("properties")
          .properties()
          .forEach(p -> properties.put(p.getKey(), p.getValue().asText()));
      fields.add("properties=" + properties);
    }
    if (type.equals("update-namespace-properties")) {
      fields.add("updated=" + texts(op.path("updated")));
      fields.add("removed=" + texts(op.path("removed")));
    }
    if (op.has("reason")) {
      fields.add("reason=" + op.path("reason").asText());
    }
    if (op.has("change")) {
      fields.add(change(op.path("change")));
    }
    return fields;
  }

  /** An access change, every field of it: {@code change=grant principal=ann namespace=db …}. */
  private static String change(JsonNode change) {
    List<String> fields = new ArrayList<>();
    fields.add("change=" + change.path("op").asText("?"));
    change
        .properties()
        .forEach(
            field -> {
              JsonNode value = field.getValue();
              if (field.getKey().equals("op") || value.isNull()) {
                return;
              }
              String text =
                  value.isArray()
                      ? Output.namespace(value)
                      : field.getKey().endsWith("AtMillis") && value.asLong() > 0
                          ? Output.time(value.asLong())
                          : field.getKey().endsWith("AtMillis") ? "never" : value.asText();
              fields.add(field.getKey() + "=" + text);
            });
    return String.join("  ", fields);
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(item -> texts.add(item.asText()));
    return texts;
  }

  private static String name(JsonNode identifier) {
    String namespace = Output.namespace(identifier.path("namespace"));
    String table = identifier.path("name").asText();
    return namespace.isEmpty() ? table : namespace + "." + table;
  }
}
