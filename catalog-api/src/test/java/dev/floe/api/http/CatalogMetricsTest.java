package dev.floe.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.Rejection;
import dev.floe.events.RejectionCode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus text of {@link CatalogMetrics}: latency histograms, command outcomes, Streams
 * gauges.
 */
class CatalogMetricsTest {
  @Test
  void requestLatencyIsAHistogramByMethodRouteAndStatus() {
    CatalogMetrics metrics = new CatalogMetrics();
    metrics.recordRequest("GET", "/v1/{prefix}/namespaces", 200, 250_000_000);
    metrics.recordRequest("GET", "/v1/{prefix}/namespaces", 200, 500_000_000);
    String labels = "method=\"GET\",route=\"/v1/{prefix}/namespaces\",status=\"200\"";
    assertThat(metrics.render())
        .contains("# TYPE floe_http_request_duration_seconds histogram")
        .contains("floe_http_request_duration_seconds_bucket{" + labels + ",le=\"0.1\"} 0\n")
        .contains("floe_http_request_duration_seconds_bucket{" + labels + ",le=\"0.25\"} 1\n")
        .contains("floe_http_request_duration_seconds_bucket{" + labels + ",le=\"0.5\"} 2\n")
        .contains("floe_http_request_duration_seconds_bucket{" + labels + ",le=\"+Inf\"} 2\n")
        .contains("floe_http_request_duration_seconds_sum{" + labels + "} 0.75\n")
        .contains("floe_http_request_duration_seconds_count{" + labels + "} 2\n");
  }

  @Test
  void commandOutcomesAreCountedByRejectionCode() {
    CatalogMetrics metrics = new CatalogMetrics();
    String route = "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}";
    metrics.recordCommand(route, CatalogMetrics.CommandOutcome.ACCEPTED, "", 0.02);
    metrics.recordCommand(
        route, CatalogMetrics.CommandOutcome.REJECTED, "REQUIREMENT_FAILED", 0.03);
    metrics.recordCommand(
        route, CatalogMetrics.CommandOutcome.REJECTED, "REQUIREMENT_FAILED", 0.03);
    assertThat(metrics.render())
        .contains("floe_commands_total{route=\"" + route + "\",outcome=\"accepted\",code=\"\"} 1\n")
        .contains(
            "floe_commands_total{route=\""
                + route
                + "\",outcome=\"rejected\",code=\"REQUIREMENT_FAILED\"} 2\n")
        .contains("floe_command_reply_wait_seconds_count{outcome=\"rejected\"} 2\n")
        .contains("floe_command_reply_wait_seconds_bucket{outcome=\"accepted\",le=\"0.025\"} 1\n");
  }

  @Test
  void anAnswersErrorTellsWhetherItsCommandWasDecidedRefusedOrUnknown() {
    CatalogMetrics metrics = new CatalogMetrics();
    String route = "POST /v1/{prefix}/transactions/commit";
    String id = "0190b3c2-0000-7000-8000-000000000001";
    metrics.recordCommand(route, id, null);
    metrics.recordCommand(
        route,
        id,
        HttpErrors.fromRejection(new Rejection(RejectionCode.REQUIREMENT_FAILED, "stale")));
    metrics.recordCommand(route, id, HttpErrors.from(new TimeoutException("5s")));
    metrics.recordCommand(route, id, HttpErrors.from(new RecordTooLargeException("2 MB")));
    String series = "floe_commands_total{route=\"" + route + "\",outcome=";
    assertThat(metrics.render())
        .contains(series + "\"accepted\",code=\"\"} 1\n")
        .contains(series + "\"rejected\",code=\"REQUIREMENT_FAILED\"} 1\n")
        .contains(series + "\"unknown\",code=\"\"} 1\n")
        .contains(series + "\"failed\",code=\"RequestTooLargeException\"} 1\n");
  }

  @Test
  void reportsOfTooManyTablesShareOneSeries() {
    CatalogMetrics metrics = new CatalogMetrics();
    for (int i = 0; i < CatalogMetrics.MAX_REPORT_SERIES + 5; i++) {
      metrics.countReport("default", "db", "t" + i, "scan");
    }
    assertThat(metrics.reportCount("default", "db", "t0", "scan")).isEqualTo(1);
    assertThat(metrics.reportCount("default", CatalogMetrics.OTHER, CatalogMetrics.OTHER, "scan"))
        .isEqualTo(5);
  }

  @Test
  void streamsMetricsAreGaugesWithoutTheLegacyTopicTwins() {
    Map<MetricName, Metric> kafka = new LinkedHashMap<>();
    add(kafka, "stream-thread-metrics", "process-rate", 12.5, "thread-id", "t-1");
    add(kafka, "stream-thread-metrics", "commit-latency-avg", 21.0, "thread-id", "t-1");
    add(kafka, "stream-thread-metrics", "commit-latency-max", Double.NaN, "thread-id", "t-1");
    add(kafka, "consumer-fetch-manager-metrics", "records-lag-max", 3.0, "client-id", "c");
    add(
        kafka,
        "consumer-fetch-manager-metrics",
        "records-lag-max",
        9.0,
        "client-id",
        "c",
        "topic",
        "floe.commands",
        "partition",
        "0");
    add(
        kafka,
        "consumer-fetch-manager-metrics",
        "records-lag",
        2.0,
        "client-id",
        "c",
        "topic",
        "floe.commands",
        "partition",
        "0");
    add(
        kafka,
        "consumer-fetch-manager-metrics",
        "records-lag",
        2.0,
        "client-id",
        "c",
        "topic",
        "floe_commands",
        "partition",
        "0");
    StringBuilder text = new StringBuilder();
    new StreamsMetricsText(() -> KafkaStreams.State.RUNNING, () -> kafka).render(text);
    assertThat(text.toString())
        .contains("floe_streams_state{state=\"RUNNING\"} 1\n")
        .contains("floe_streams_state{state=\"REBALANCING\"} 0\n")
        .contains("floe_streams_process_rate{thread_id=\"t-1\"} 12.5\n")
        .contains("floe_streams_commit_latency_avg_ms{thread_id=\"t-1\"} 21.0\n")
        .contains("floe_streams_commit_latency_max_ms{thread_id=\"t-1\"} NaN\n")
        .contains("floe_streams_records_lag_max{client_id=\"c\"} 3.0\n")
        .contains(
            "floe_consumer_lag_records{client_id=\"c\",topic=\"floe.commands\",partition=\"0\"}"
                + " 2.0\n")
        .doesNotContain("floe_commands\"");
  }

  private static void add(
      Map<MetricName, Metric> metrics, String group, String name, double value, String... tags) {
    Map<String, String> tagMap = new LinkedHashMap<>();
    for (int i = 0; i < tags.length; i += 2) {
      tagMap.put(tags[i], tags[i + 1]);
    }
    MetricName metricName = new MetricName(name, group, "", tagMap);
    metrics.put(
        metricName,
        new Metric() {
          @Override
          public MetricName metricName() {
            return metricName;
          }

          @Override
          public Object metricValue() {
            return value;
          }
        });
  }
}
