package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.testing.FloeProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commits that queue behind a Kafka transaction share the next one (group commit), and none is
 * lost: 16 writers send 128 requirement-free commits to one table at once; every one is answered
 * 200 and its property is in the final metadata, and the commits took fewer transactions than there
 * were commits (one transaction per commit before group commit; about one per two commits here,
 * since a transaction starts as soon as the first waiting command is polled). Transactions are
 * counted from the outside: each committed transaction leaves one marker in every partition it
 * wrote, so on {@code floe.events} the growth of the end offsets minus the records a {@code
 * read_committed} consumer reads is the number of transactions.
 */
class GroupCommitIT {
  private static final int WRITERS = 16;
  private static final int COMMITS_PER_WRITER = 8;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @TempDir Path dataDir;

  @Test
  void concurrentCommitsOnOneTableShareTransactionsAndAllApply() throws Exception {
    try (FloeProcess floe = new FloeProcess(dataDir).start()) {
      String table = floe.uri() + "/v1/default/namespaces/hot/tables/t";
      assertThat(send(floe.uri() + "/v1/default/namespaces", "{\"namespace\":[\"hot\"]}"))
          .extracting(HttpResponse::statusCode)
          .isEqualTo(200);
      assertThat(
              send(
                  floe.uri() + "/v1/default/namespaces/hot/tables",
                  "{\"name\":\"t\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
                      + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}"))
          .extracting(HttpResponse::statusCode)
          .isEqualTo(200);

      try (KafkaConsumer<byte[], byte[]> events = consumer()) {
        List<TopicPartition> partitions =
            events.partitionsFor("floe.events").stream()
                .map(p -> new TopicPartition(p.topic(), p.partition()))
                .toList();
        events.assign(partitions);
        Map<TopicPartition, Long> before = events.endOffsets(partitions);
        partitions.forEach(p -> events.seek(p, before.get(p)));

        List<Integer> statuses = burst(table);
        assertThat(statuses).hasSize(WRITERS * COMMITS_PER_WRITER).containsOnly(200);

        Map<TopicPartition, Long> after = events.endOffsets(partitions);
        long grown = partitions.stream().mapToLong(p -> after.get(p) - before.get(p)).sum();
        long records = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (partitions.stream().anyMatch(p -> events.position(p) < after.get(p))
            && System.nanoTime() < deadline) {
          records += events.poll(Duration.ofMillis(200)).count();
        }
        long transactions = grown - records;
        int commits = WRITERS * COMMITS_PER_WRITER;
        assertThat(records).as("one event per commit").isGreaterThanOrEqualTo(commits);
        assertThat(transactions)
            .as("Kafka transactions for %d concurrent commits on one table", commits)
            .isPositive()
            .isLessThan(commits);
        System.out.printf(
            "%d concurrent commits on one table took %d Kafka transactions%n",
            commits, transactions);
      }

      JsonNode properties = JSON.readTree(get(table).body()).path("metadata").path("properties");
      for (int w = 0; w < WRITERS; w++) {
        for (int i = 0; i < COMMITS_PER_WRITER; i++) {
          assertThat(properties.path("w" + w + "-" + i).asText()).isEqualTo("done");
        }
      }
    }
  }

  /** Every writer's commits, each setting its own property; the statuses of all answers. */
  private static List<Integer> burst(String table) throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<List<Integer>>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(
            pool.submit(
                () -> {
                  go.await();
                  List<Integer> statuses = new ArrayList<>();
                  for (int i = 0; i < COMMITS_PER_WRITER; i++) {
                    String body =
                        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
                            + "\"updates\":{\"w"
                            + writer
                            + "-"
                            + i
                            + "\":\"done\"}}]}";
                    statuses.add(send(table, body).statusCode());
                  }
                  return statuses;
                }));
      }
      go.countDown();
      List<Integer> all = new ArrayList<>();
      for (Future<List<Integer>> writer : writers) {
        all.addAll(writer.get());
      }
      return all;
    } finally {
      pool.shutdownNow();
    }
  }

  private KafkaConsumer<byte[], byte[]> consumer() throws Exception {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, FloeProcess.embeddedKafka(dataDir));
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  private static HttpResponse<String> send(String uri, String body) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(uri))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(String uri) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(uri)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
