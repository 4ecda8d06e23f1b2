package dev.floe.infra.kafka;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits until Kafka's group coordinator for the processor's consumer group and its transaction
 * coordinators answer, before Kafka Streams joins the group.
 *
 * <p>A broker that has just started loads {@code __consumer_offsets} and {@code
 * __transaction_state} before its coordinators answer (seconds for a large catalog), and answers
 * {@code COORDINATOR_LOAD_IN_PROGRESS} meanwhile. The classic consumer retries that answer to
 * JoinGroup but not to SyncGroup: Kafka 4.3.1's {@code AbstractCoordinator} turns it into a fatal
 * {@code KafkaException("Unexpected error from SyncGroup: …")}, which kills the stream thread.
 * Joining only once the coordinator answers closes most of that window; {@code FloeServer} restarts
 * the processor for what remains.
 */
public final class CoordinatorReadiness {
  private static final Logger LOG = LoggerFactory.getLogger(CoordinatorReadiness.class);
  private static final long ATTEMPT_MS = 500;
  private static final long PAUSE_MS = 200;
  private static final long LOG_EVERY_MS = 10_000;

  private CoordinatorReadiness() {}

  /**
   * Returns once an offset fetch for {@code groupId} (answered by the group's coordinator) and a
   * listing of transactions (answered by every broker's transaction coordinator) both succeed.
   *
   * @return how many attempts found a coordinator not ready (0: ready at once)
   * @throws IllegalStateException when they are not ready within {@code maxWait}, or an answer is
   *     an error that waiting cannot cure (authorisation, for one)
   */
  public static int await(Admin admin, String groupId, Duration maxWait) {
    long started = System.nanoTime();
    long deadline = started + maxWait.toNanos();
    long nextLog = started;
    int notReady = 0;
    while (true) {
      String waitingFor = "group coordinator of " + groupId;
      try {
        admin
            .listConsumerGroupOffsets(
                groupId, new ListConsumerGroupOffsetsOptions().timeoutMs((int) ATTEMPT_MS))
            .partitionsToOffsetAndMetadata()
            .get(ATTEMPT_MS + 1_000, TimeUnit.MILLISECONDS);
        waitingFor = "transaction coordinators";
        admin
            .listTransactions(new ListTransactionsOptions().timeoutMs((int) ATTEMPT_MS))
            .all()
            .get(ATTEMPT_MS + 1_000, TimeUnit.MILLISECONDS);
        if (notReady > 0) {
          LOG.info(
              "Kafka's coordinators are ready after {} ms of waiting",
              (System.nanoTime() - started) / 1_000_000);
        }
        return notReady;
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof RetriableException)) {
          throw new IllegalStateException(
              "Kafka's coordinators did not answer: " + e.getCause(), e.getCause());
        }
        notReady++;
        nextLog = logWaiting(waitingFor, e.getCause().toString(), started, nextLog);
      } catch (TimeoutException e) {
        notReady++;
        nextLog = logWaiting(waitingFor, "no answer", started, nextLog);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for Kafka's coordinators", e);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "Kafka's "
                + waitingFor
                + " did not become ready within "
                + maxWait.toSeconds()
                + " s (is the broker still loading __consumer_offsets or __transaction_state?)");
      }
      sleep();
    }
  }

  private static long logWaiting(String waitingFor, String answer, long started, long nextLog) {
    long now = System.nanoTime();
    if (now < nextLog) {
      return nextLog;
    }
    LOG.info(
        "Waiting for Kafka's {} (still loading after a broker start?); {} ms so far, last answer:"
            + " {}",
        waitingFor,
        (now - started) / 1_000_000,
        answer);
    return now + TimeUnit.MILLISECONDS.toNanos(LOG_EVERY_MS);
  }

  private static void sleep() {
    try {
      Thread.sleep(PAUSE_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for Kafka's coordinators", e);
    }
  }
}
