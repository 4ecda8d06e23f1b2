package dev.floe.api.http;

import dev.floe.client.KafkaReachability;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;

/**
 * {@code GET /health/live}: the process serves HTTP, and its command processor has not failed for
 * good (Kafka Streams' ERROR state is terminal: only a restart helps). {@code GET /health/ready}:
 * it can also answer the catalog — the command processor is RUNNING (its stores restored, its
 * partitions assigned) and Kafka answered a check no older than a few seconds; otherwise 503 with
 * the ErrorModel.
 */
public final class HealthHandlers {
  static final byte[] UP = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);

  private final Supplier<KafkaStreams.State> processor;
  private final Supplier<CompletionStage<KafkaReachability.Result>> kafka;

  public HealthHandlers(
      Supplier<KafkaStreams.State> processor,
      Supplier<CompletionStage<KafkaReachability.Result>> kafka) {
    this.processor = processor;
    this.kafka = kafka;
  }

  public Future<HttpResult> handleLive(RequestContext request) {
    if (processor.get() == KafkaStreams.State.ERROR) {
      throw ApiException.serviceUnavailable(
          "Not live: the command processor failed; restart the instance");
    }
    return Future.succeededFuture(new HttpResult(200, UP, Map.of("Cache-Control", "no-store")));
  }

  public Future<HttpResult> handleReady(RequestContext request) {
    KafkaStreams.State state = processor.get();
    if (state != KafkaStreams.State.RUNNING) {
      throw notReady("the command processor is " + state);
    }
    var context = Vertx.currentContext();
    CompletionStage<KafkaReachability.Result> check = kafka.get();
    return (context == null
            ? Future.fromCompletionStage(check)
            : Future.fromCompletionStage(check, context))
        .map(
            result -> {
              if (!result.reachable()) {
                throw notReady("Kafka is not reachable: " + result.problem());
              }
              return new HttpResult(200, UP, Map.of("Cache-Control", "no-store"));
            });
  }

  static ApiException notReady(String why) {
    return ApiException.serviceUnavailable("Not ready: " + why);
  }
}
