package dev.floe.api.http;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * A handful of the command processor's Kafka Streams metrics, rendered as Prometheus gauges: how
 * fast it decides, how long its transactions take to commit, how far its consumer trails the
 * command log, and its state.
 */
final class StreamsMetricsText {
  /** One Kafka metric ({@code group}, {@code name}) exposed under {@code prometheusName}. */
  private record Exposed(
      String group,
      String name,
      String prometheusName,
      String type,
      String help,
      List<String> tags) {
    /** Exactly these tags: a consumer's per-partition lag is not its client-wide maximum. */
    boolean matches(MetricName metric) {
      return metric.group().equals(group)
          && metric.name().equals(name)
          && metric.tags().keySet().equals(Set.copyOf(tags));
    }
  }

  private static final List<Exposed> EXPOSED =
      List.of(
          new Exposed(
              "stream-thread-metrics",
              "process-rate",
              "floe_streams_process_rate",
              "gauge",
              "Records processed per second by each stream thread.",
              List.of("thread-id")),
          new Exposed(
              "stream-thread-metrics",
              "process-total",
              "floe_streams_process_total",
              "counter",
              "Records processed by each stream thread since it started.",
              List.of("thread-id")),
          new Exposed(
              "stream-thread-metrics",
              "commit-latency-avg",
              "floe_streams_commit_latency_avg_ms",
              "gauge",
              "Average time of a stream thread's commit (its Kafka transaction), in ms.",
              List.of("thread-id")),
          new Exposed(
              "stream-thread-metrics",
              "commit-latency-max",
              "floe_streams_commit_latency_max_ms",
              "gauge",
              "Longest commit of a stream thread in the metrics window, in ms.",
              List.of("thread-id")),
          new Exposed(
              "consumer-fetch-manager-metrics",
              "records-lag-max",
              "floe_streams_records_lag_max",
              "gauge",
              "Largest lag in records of any partition a processor consumer reads, in the metrics"
                  + " window.",
              List.of("client-id")),
          new Exposed(
              "consumer-fetch-manager-metrics",
              "records-lag",
              "floe_consumer_lag_records",
              "gauge",
              "Records between a processor consumer's position and the end of each partition it"
                  + " reads.",
              List.of("client-id", "topic", "partition")),
          new Exposed(
              "stream-metrics",
              "alive-stream-threads",
              "floe_streams_alive_threads",
              "gauge",
              "Stream threads currently running.",
              List.of("client-id")));

  private final Supplier<KafkaStreams.State> state;
  private final Supplier<Map<MetricName, ? extends Metric>> metrics;

  StreamsMetricsText(KafkaStreams streams) {
    this(streams::state, streams::metrics);
  }

  StreamsMetricsText(
      Supplier<KafkaStreams.State> state, Supplier<Map<MetricName, ? extends Metric>> metrics) {
    this.state = state;
    this.metrics = metrics;
  }

  void render(StringBuilder text) {
    KafkaStreams.State current = state.get();
    text.append(
        "# HELP floe_streams_state The command processor's Kafka Streams state (1 for the current"
            + " one).\n");
    text.append("# TYPE floe_streams_state gauge\n");
    for (KafkaStreams.State s : KafkaStreams.State.values()) {
      text.append("floe_streams_state{state=\"")
          .append(s)
          .append("\"} ")
          .append(s == current ? 1 : 0)
          .append('\n');
    }
    Map<MetricName, ? extends Metric> all = metrics.get();
    Set<String> legacyTopics = legacyTopicNames(all.keySet());
    for (Exposed exposed : EXPOSED) {
      Map<String, String> lines = new TreeMap<>();
      all.forEach(
          (name, metric) -> {
            if (exposed.matches(name)
                && !legacyTopics.contains(name.tags().get("topic"))
                && metric.metricValue() instanceof Number value) {
              lines.put(labels(name, exposed.tags()), number(value.doubleValue()));
            }
          });
      text.append("# HELP ")
          .append(exposed.prometheusName())
          .append(' ')
          .append(exposed.help())
          .append('\n');
      text.append("# TYPE ")
          .append(exposed.prometheusName())
          .append(' ')
          .append(exposed.type())
          .append('\n');
      lines.forEach(
          (labels, value) ->
              text.append(exposed.prometheusName())
                  .append(labels)
                  .append(' ')
                  .append(value)
                  .append('\n'));
    }
  }

  /**
   * Kafka registers per-partition consumer metrics twice while KIP-1109's deprecation runs: with
   * the topic's name, and with its dots replaced by underscores. The underscored twins are left out
   * (a name without dots has one form only, and stays).
   */
  private static Set<String> legacyTopicNames(Set<MetricName> names) {
    Set<String> legacy = new HashSet<>();
    for (MetricName name : names) {
      String topic = name.tags().get("topic");
      if (topic != null && topic.contains(".")) {
        legacy.add(topic.replace('.', '_'));
      }
    }
    return legacy;
  }

  private static String labels(MetricName name, List<String> tags) {
    if (tags.isEmpty()) {
      return "";
    }
    StringBuilder labels = new StringBuilder("{");
    for (String tag : tags) {
      if (labels.length() > 1) {
        labels.append(',');
      }
      labels
          .append(tag.replace('-', '_'))
          .append("=\"")
          .append(CatalogMetrics.escape(name.tags().get(tag)))
          .append('"');
    }
    return labels.append('}').toString();
  }

  static String number(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    return Double.toString(value);
  }
}
