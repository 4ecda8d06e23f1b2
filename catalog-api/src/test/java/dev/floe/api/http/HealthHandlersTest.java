package dev.floe.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.client.KafkaReachability;
import io.vertx.core.Future;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

/** Liveness and readiness from the processor's state and the Kafka check. */
class HealthHandlersTest {
  private static final KafkaReachability.Result REACHABLE =
      new KafkaReachability.Result(System.nanoTime(), null);
  private static final KafkaReachability.Result UNREACHABLE =
      new KafkaReachability.Result(
          System.nanoTime(), "TimeoutException: Timed out waiting for a node assignment");

  @Test
  void readyWhenProcessorRunsAndKafkaAnswers() throws Exception {
    HttpResult result = await(handlers(KafkaStreams.State.RUNNING, REACHABLE).handleReady(null));
    assertThat(result.status()).isEqualTo(200);
    assertThat(new String(result.body())).isEqualTo("{\"status\":\"UP\"}");
  }

  @Test
  void notReadyWhileProcessorRebalances() {
    assertThatThrownBy(() -> handlers(KafkaStreams.State.REBALANCING, REACHABLE).handleReady(null))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(503);
              assertThat(e.type()).isEqualTo("ServiceUnavailableException");
              assertThat(e.getMessage())
                  .isEqualTo("Not ready: the command processor is REBALANCING");
            });
  }

  @Test
  void notReadyWhenKafkaDoesNotAnswer() {
    Future<HttpResult> ready = handlers(KafkaStreams.State.RUNNING, UNREACHABLE).handleReady(null);
    assertThatThrownBy(() -> await(ready))
        .hasCauseInstanceOf(ApiException.class)
        .hasMessageContaining("Not ready: Kafka is not reachable");
  }

  @Test
  void liveUnlessProcessorFailedForGood() throws Exception {
    assertThat(
            await(handlers(KafkaStreams.State.REBALANCING, UNREACHABLE).handleLive(null)).status())
        .isEqualTo(200);
    assertThatThrownBy(() -> handlers(KafkaStreams.State.ERROR, REACHABLE).handleLive(null))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(503));
  }

  @Test
  void unreachableClusterIsReportedWithinTheTimeout() throws Exception {
    try (KafkaReachability kafka = new KafkaReachability("localhost:1")) {
      KafkaReachability.Result result =
          kafka.check().toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertThat(result.reachable()).isFalse();
      // A fresh result is shared, not checked again.
      assertThat(kafka.check().toCompletableFuture().get(1, TimeUnit.SECONDS)).isSameAs(result);
    }
  }

  private static HealthHandlers handlers(KafkaStreams.State state, KafkaReachability.Result kafka) {
    return new HealthHandlers(() -> state, () -> CompletableFuture.completedFuture(kafka));
  }

  private static HttpResult await(Future<HttpResult> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
  }
}
