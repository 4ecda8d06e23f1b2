package dev.floe.server.cli;

import dev.floe.events.FloeJson;
import dev.floe.events.event.AccessChangedEvent;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.event.ExpungeEvent;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespaceEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.events.event.NamespaceRestoredEvent;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.TableRegisteredEvent;
import dev.floe.events.event.TableRenamedEvent;
import dev.floe.events.event.TableRestoredEvent;
import dev.floe.server.logging.ControlCharacters;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.iceberg.MetadataUpdate;

/** Filters and prints {@code floe.events} records for {@code floe events tail}. */
final class EventLines implements TailCommand.Lines {
  private final TailOptions options;

  EventLines(TailOptions options) {
    this.options = options;
  }

  @Override
  public Optional<String> line(byte[] value) {
    EventEnvelope envelope = EventEnvelope.fromBytes(value);
    if (!matches(envelope.data())) {
      return Optional.empty();
    }
    return Optional.of(
        options.json() ? new String(value, StandardCharsets.UTF_8) : format(envelope));
  }

  private boolean matches(CatalogEvent event) {
    return (options.types().isEmpty() || options.types().contains(event.type()))
        && (options.table() == null
            || options.table().equals(event.subject())
            // a rename is the last event under the old name too
            || (event instanceof TableRenamedEvent renamed
                && options.table().equals(renamed.from().toString()))
            // a restore under another name is the dropped table's next event
            || (event instanceof TableRestoredEvent restored
                && options.table().equals(restored.from().toString())))
        && (options.namespace() == null || options.namespace().equals(namespaceOf(event)));
  }

  /** The namespace the event's entity lives in (a namespace event's own), or null. */
  private static String namespaceOf(CatalogEvent event) {
    if (event instanceof NamespaceEvent e) {
      return e.namespace().toString();
    } else if (event instanceof TableCreatedEvent e) {
      return e.identifier().namespace().toString();
    } else if (event instanceof TableCommittedEvent e) {
      return e.identifier().namespace().toString();
    } else if (event instanceof TableDroppedEvent e) {
      return e.identifier().namespace().toString();
    } else if (event instanceof TableRegisteredEvent e) {
      return e.identifier().namespace().toString();
    } else if (event instanceof TableRenamedEvent e) {
      return e.to().namespace().toString();
    } else if (event instanceof TableRestoredEvent e) {
      return e.to().namespace().toString();
    } else if (event instanceof ExpungeEvent e) {
      return e.identifier().namespace().toString();
    }
    return null;
  }

  static String format(EventEnvelope envelope) {
    CatalogEvent event = envelope.data();
    List<String> fields = new ArrayList<>();
    fields.add(envelope.time());
    fields.add(event.type());
    fields.add(event.subject());
    fields.add("seq=" + event.sequence());
    fields.add("by=" + event.principal());
    fields.add("cmd=" + event.commandId());
    fields.addAll(details(event));
    // Names, properties and principals hold what callers sent: one event, one line.
    return ControlCharacters.escape(String.join("  ", fields));
  }

  private static List<String> details(CatalogEvent event) {
    if (event instanceof TableCommittedEvent e) {
      return List.of("updates=" + actions(e.updates()), "metadata=" + e.metadataLocation());
    } else if (event instanceof TableCreatedEvent e) {
      return List.of("metadata=" + e.metadataLocation());
    } else if (event instanceof TableRegisteredEvent e) {
      return e.overwrote()
          ? List.of("metadata=" + e.metadataLocation(), "overwrote=true")
          : List.of("metadata=" + e.metadataLocation());
    } else if (event instanceof TableRenamedEvent e) {
      return List.of("from=" + e.from());
    } else if (event instanceof TableDroppedEvent e) {
      return e.purgeRequested() ? List.of("purge=requested") : List.of();
    } else if (event instanceof TableRestoredEvent e) {
      return List.of("from=" + e.from(), "uuid=" + e.tableUuid());
    } else if (event instanceof TableExpungedEvent e) {
      return e.purge()
          ? List.of("uuid=" + e.tableUuid(), "purge=now")
          : List.of("uuid=" + e.tableUuid());
    } else if (event instanceof NamespaceCreatedEvent e) {
      return e.properties().isEmpty()
          ? List.of()
          : List.of("properties=" + new TreeMap<>(e.properties()));
    } else if (event instanceof NamespacePropertiesUpdatedEvent e) {
      return List.of("updated=" + new TreeMap<>(e.updated()), "removed=" + e.removed());
    } else if (event instanceof NamespaceDroppedEvent e && e.kept()) {
      return List.of("kept-until=" + Instant.ofEpochMilli(e.expiresAtMs()));
    } else if (event instanceof NamespaceRestoredEvent e) {
      return List.of("properties=" + new TreeMap<>(e.properties()));
    } else if (event instanceof AccessChangedEvent e) {
      return List.of("op=" + FloeJson.mapper().valueToTree(e.change()).path("op").asText("?"));
    }
    return List.of();
  }

  /** Iceberg's own action names ({@code add-snapshot}), as written by its MetadataUpdateParser. */
  private static String actions(List<MetadataUpdate> updates) {
    return updates.stream()
        .map(u -> FloeJson.mapper().valueToTree(u).path("action").asText("?"))
        .collect(Collectors.joining(","));
  }
}
