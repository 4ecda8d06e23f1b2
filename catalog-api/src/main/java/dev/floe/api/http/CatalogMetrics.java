package dev.floe.api.http;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters exposed at {@code GET /metrics} in the Prometheus text format. Engines' scan and commit
 * reports ({@code POST …/metrics}) are counted per table and report type, not discarded.
 */
public final class CatalogMetrics {
  private final Map<String, LongAdder> reports = new ConcurrentHashMap<>();

  void countReport(String warehouse, String namespace, String table, String reportType) {
    String labels =
        "warehouse=\"" + escape(warehouse) + "\",namespace=\"" + escape(namespace) + "\",table=\""
            + escape(table) + "\",type=\"" + escape(reportType) + "\"";
    reports.computeIfAbsent(labels, k -> new LongAdder()).increment();
  }

  long reportCount(String warehouse, String namespace, String table, String reportType) {
    String labels =
        "warehouse=\"" + escape(warehouse) + "\",namespace=\"" + escape(namespace) + "\",table=\""
            + escape(table) + "\",type=\"" + escape(reportType) + "\"";
    LongAdder count = reports.get(labels);
    return count == null ? 0 : count.sum();
  }

  String render() {
    StringBuilder text = new StringBuilder();
    text.append("# HELP floe_metrics_reports_total Metrics reports received from engines.\n");
    text.append("# TYPE floe_metrics_reports_total counter\n");
    new TreeMap<>(reports)
        .forEach((labels, count) -> text.append("floe_metrics_reports_total{").append(labels).append("} ").append(count.sum()).append('\n'));
    return text.toString();
  }

  private static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
