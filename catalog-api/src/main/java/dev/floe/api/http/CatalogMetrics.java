package dev.floe.api.http;

import io.vertx.core.http.HttpMethod;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Metrics exposed at {@code GET /metrics} in the Prometheus text format: request latency by route
 * template and status, command outcomes by rejection code, how long writes wait for their decision,
 * the command processor's Kafka Streams metrics (rates, commit latency, consumer lag), and engines'
 * scan and commit reports ({@code POST …/metrics}), counted per table and report type, not
 * discarded.
 */
public final class CatalogMetrics {
  /** A command's outcome as the API saw it. */
  enum CommandOutcome {
    /** The processor applied it (or found nothing to change). */
    ACCEPTED,
    /** The processor decided against it: certainly not applied. */
    REJECTED,
    /** Refused before it reached the log (too large for it): certainly not applied. */
    FAILED,
    /** No decision arrived (timeout, Kafka failure): it may or may not have applied. */
    UNKNOWN;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * Distinct tables whose reports are counted on their own; the rest are counted as {@link #OTHER}.
   */
  static final int MAX_REPORT_SERIES = 10_000;

  static final String OTHER = "(other)";

  private final Map<String, LongAdder> reports = new ConcurrentHashMap<>();
  private final Map<String, LatencyHistogram> requests = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> commands = new ConcurrentHashMap<>();
  private final Map<String, LatencyHistogram> replyWaits = new ConcurrentHashMap<>();
  private final StreamsMetricsText streams;
  private final ConnectionLimits connections;

  /** Without a command processor or HTTP server to report on (tests, tools). */
  public CatalogMetrics() {
    this.streams = null;
    this.connections = null;
  }

  public CatalogMetrics(KafkaStreams streams, ConnectionLimits connections) {
    this.streams = new StreamsMetricsText(streams);
    this.connections = connections;
  }

  void countReport(String warehouse, String namespace, String table, String reportType) {
    String labels = reportLabels(warehouse, namespace, table, reportType);
    if (!reports.containsKey(labels) && reports.size() >= MAX_REPORT_SERIES) {
      // Reports are counted only for tables that exist, but those may be many: past the bound,
      // one series.
      labels = reportLabels(warehouse, OTHER, OTHER, reportType);
    }
    reports.computeIfAbsent(labels, k -> new LongAdder()).increment();
  }

  long reportCount(String warehouse, String namespace, String table, String reportType) {
    LongAdder count = reports.get(reportLabels(warehouse, namespace, table, reportType));
    return count == null ? 0 : count.sum();
  }

  private static final Set<String> METHOD_LABELS =
      Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT");

  /** The method label of a request: the standard methods by name, any other as {@code OTHER}. */
  static String methodLabel(HttpMethod method) {
    return METHOD_LABELS.contains(method.name()) ? method.name() : "OTHER";
  }

  /**
   * One answered request. {@code route} is the matched template ({@code
   * /v1/{prefix}/namespaces/{namespace}}), never the raw path, so the label set stays bounded.
   */
  void recordRequest(String method, String route, int status, long nanos) {
    String labels =
        "method=\""
            + escape(method)
            + "\",route=\""
            + escape(route)
            + "\",status=\""
            + status
            + "\"";
    requests.computeIfAbsent(labels, k -> new LatencyHistogram()).observe(nanos / 1e9);
  }

  /**
   * One command's outcome and the time from its creation to its decision (or to giving up).
   *
   * @param code the rejection code of a rejected command, the error type of a failed one, else
   *     empty
   */
  void recordCommand(String route, CommandOutcome outcome, String code, double waitSeconds) {
    String labels =
        "route=\""
            + escape(route)
            + "\",outcome=\""
            + outcome.label()
            + "\",code=\""
            + escape(code)
            + "\"";
    commands.computeIfAbsent(labels, k -> new LongAdder()).increment();
    replyWaits
        .computeIfAbsent("outcome=\"" + outcome.label() + "\"", k -> new LatencyHistogram())
        .observe(waitSeconds);
  }

  /**
   * The outcome of the command a request produced, as its answer tells it: a rejection was decided,
   * any other 5xx is unknown, a 4xx was refused before it reached the log.
   *
   * @param commandId the command's UUIDv7, whose first 48 bits are its creation time
   * @param error the failure answered, or null for a success
   */
  void recordCommand(String route, String commandId, ApiException error) {
    CommandOutcome outcome;
    String code = "";
    if (error == null) {
      outcome = CommandOutcome.ACCEPTED;
    } else if (error instanceof CommandRejectedException rejected) {
      outcome = CommandOutcome.REJECTED;
      code = rejected.code().name();
    } else if (error.status() >= 500) {
      outcome = CommandOutcome.UNKNOWN;
    } else {
      outcome = CommandOutcome.FAILED;
      code = error.type();
    }
    recordCommand(route, outcome, code, secondsSince(commandId));
  }

  private static double secondsSince(String commandId) {
    try {
      long created = UUID.fromString(commandId).getMostSignificantBits() >>> 16;
      return Math.max(0, System.currentTimeMillis() - created) / 1000.0;
    } catch (IllegalArgumentException e) {
      return 0;
    }
  }

  String render() {
    StringBuilder text = new StringBuilder();
    text.append(
        "# HELP floe_http_request_duration_seconds Time to answer a request, by route template and"
            + " status.\n");
    text.append("# TYPE floe_http_request_duration_seconds histogram\n");
    new TreeMap<>(requests)
        .forEach(
            (labels, histogram) ->
                histogram.render(text, "floe_http_request_duration_seconds", labels));
    text.append(
        "# HELP floe_commands_total Commands sent to the processor, by outcome and rejection"
            + " code.\n");
    text.append("# TYPE floe_commands_total counter\n");
    counters(text, "floe_commands_total", commands);
    text.append(
        "# HELP floe_command_reply_wait_seconds Time from a command's creation to its decision, by"
            + " outcome.\n");
    text.append("# TYPE floe_command_reply_wait_seconds histogram\n");
    new TreeMap<>(replyWaits)
        .forEach(
            (labels, histogram) ->
                histogram.render(text, "floe_command_reply_wait_seconds", labels));
    text.append("# HELP floe_metrics_reports_total Metrics reports received from engines.\n");
    text.append("# TYPE floe_metrics_reports_total counter\n");
    counters(text, "floe_metrics_reports_total", reports);
    if (connections != null) {
      text.append(
          "# HELP floe_http_connections_open HTTP connections open, counted against"
              + " floe.http.max-connections.\n");
      text.append("# TYPE floe_http_connections_open gauge\n");
      text.append("floe_http_connections_open ").append(connections.open()).append('\n');
      text.append(
          "# HELP floe_http_connections_refused_total HTTP connections closed as they opened, the"
              + " cap being reached.\n");
      text.append("# TYPE floe_http_connections_refused_total counter\n");
      text.append("floe_http_connections_refused_total ")
          .append(connections.refused())
          .append('\n');
    }
    if (streams != null) {
      streams.render(text);
    }
    return text.toString();
  }

  private static void counters(StringBuilder text, String name, Map<String, LongAdder> counters) {
    new TreeMap<>(counters)
        .forEach(
            (labels, count) ->
                text.append(name)
                    .append('{')
                    .append(labels)
                    .append("} ")
                    .append(count.sum())
                    .append('\n'));
  }

  private static String reportLabels(
      String warehouse, String namespace, String table, String reportType) {
    return "warehouse=\""
        + escape(warehouse)
        + "\",namespace=\""
        + escape(namespace)
        + "\",table=\""
        + escape(table)
        + "\",type=\""
        + escape(reportType)
        + "\"";
  }

  static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
