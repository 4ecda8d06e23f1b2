package dev.floe.projections.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventEnvelope;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One event of {@code floe.events} as the events endpoint serves it: an {@code Event} of Iceberg's
 * proposed Events API (apache/iceberg#12584), and what the endpoint filters and authorises it by.
 * Floe's own changes (restores, expunges, purges, access changes) are {@code x-floe.…} operations.
 *
 * @param operationType the draft's {@code operation-type}
 * @param objectType {@code namespace}, {@code table} or {@code view}; null for a change to no one
 *     catalog object (a purge of files, an access change)
 * @param names the full names (namespace levels, then the table's or view's name) it is about: two
 *     for a rename or a restore under another name
 * @param uuid the table's or view's uuid, or null
 * @param actor who made the change
 * @param warehouse the warehouse it belongs to ({@code *} for a change to principals or tokens)
 * @param operation the draft's {@code operation} object
 */
public record CatalogObjectEvent(
    String operationType,
    String objectType,
    List<List<String>> names,
    String uuid,
    String actor,
    String warehouse,
    ObjectNode operation) {

  public static final String NAMESPACE = "namespace";
  public static final String TABLE = "table";
  public static final String VIEW = "view";

  /**
   * The operation type the endpoint serves for each event type of the log: the one vocabulary the
   * command line's {@code --type} and its lines use, whichever way it reads the events.
   */
  public static final Map<String, String> OPERATION_TYPES =
      Map.ofEntries(
          Map.entry("floe.namespace.created", "create-namespace"),
          Map.entry("floe.namespace.properties-updated", "update-namespace-properties"),
          Map.entry("floe.namespace.dropped", "drop-namespace"),
          Map.entry("floe.namespace.restored", "x-floe.restore-namespace"),
          Map.entry("floe.namespace.expunged", "x-floe.expunge-namespace"),
          Map.entry("floe.table.created", "create-table"),
          Map.entry("floe.table.registered", "register-table"),
          Map.entry("floe.table.committed", "update-table"),
          Map.entry("floe.table.dropped", "drop-table"),
          Map.entry("floe.table.renamed", "rename-table"),
          Map.entry("floe.table.restored", "x-floe.restore-table"),
          Map.entry("floe.table.expunged", "x-floe.expunge-table"),
          Map.entry("floe.table.files-purged", "x-floe.purge-files"),
          Map.entry("floe.table.purge-refused", "x-floe.purge-refused"),
          Map.entry("floe.table.maintained", "x-floe.maintain-table"),
          Map.entry("floe.view.created", "create-view"),
          Map.entry("floe.view.registered", "x-floe.register-view"),
          Map.entry("floe.view.replaced", "update-view"),
          Map.entry("floe.view.dropped", "drop-view"),
          Map.entry("floe.view.renamed", "rename-view"),
          Map.entry("floe.view.restored", "x-floe.restore-view"),
          Map.entry("floe.view.expunged", "x-floe.expunge-view"),
          Map.entry("floe.access.changed", "x-floe.change-access"));

  private static final ObjectMapper JSON = FloeJson.mapper();

  /** The event as the endpoint serves it, with its id, request and time. */
  public static ObjectNode json(
      EventEnvelope envelope, CatalogObjectEvent event, int requestCount) {
    ObjectNode node = JSON.createObjectNode();
    node.put("event-id", envelope.id());
    node.put("request-id", envelope.data().commandId());
    node.put("request-event-count", Math.max(1, requestCount));
    node.put("timestamp-ms", Instant.parse(envelope.time()).toEpochMilli());
    node.putObject("actor").put("id", event.actor());
    node.set("operation", event.operation());
    return node;
  }

  /** What the endpoint serves for one event of the log. */
  public static CatalogObjectEvent of(CatalogEvent event) {
    return event.accept(EndpointForms.INSTANCE);
  }
}
