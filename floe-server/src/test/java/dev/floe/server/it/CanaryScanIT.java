package dev.floe.server.it;

import static dev.floe.server.it.support.AuthHttp.expect;
import static dev.floe.server.it.support.AuthHttp.send;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.RestClients;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeds canary tokens (real ones, used for reads, writes and refused requests; a revoked one; bogus
 * ones in the Floe and JWT shapes), runs a workload with them, then scans everything Floe wrote:
 * its log, every record of every topic, and every file under its data directory (Kafka segments,
 * RocksDB stores, metadata files). No canary may appear anywhere.
 */
class CanaryScanIT {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @TempDir Path dataDir;

  @Test
  void noTokenAppearsInLogsTopicsOrStores() throws Exception {
    List<String> canaries = new ArrayList<>();
    Path serverLog;
    try (FloeProcess floe =
        new FloeProcess(dataDir, Map.of("floe.auth", "token", "floe.audit.reads", "true"))
            .start()) {
      String admin = floe.adminToken();
      String writer = AuthHttp.principalWithToken(floe.uri(), admin, "canary-writer");
      String reader = AuthHttp.principalWithToken(floe.uri(), admin, "canary-reader");
      String revoked = AuthHttp.principalWithToken(floe.uri(), admin, "canary-revoked");
      canaries.addAll(List.of(writer, reader, revoked));
      canaries.add("floe_CANARYbogusTokenThatWasNeverIssued0000000000");
      canaries.add("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjYW5hcnkifQ.CANARYsignature");
      expect(
          204,
          floe.uri(),
          "PUT",
          "/management/v1/principals/canary-writer/roles/default",
          admin,
          "{\"role\":\"writer\"}");
      expect(
          204,
          floe.uri(),
          "PUT",
          "/management/v1/principals/canary-reader/roles/default",
          admin,
          "{\"role\":\"reader\"}");

      // The Java client with the writer's token: create, commit (append), load, list.
      try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
        catalog.createNamespace(Namespace.of("canary"));
        TableIdentifier id = TableIdentifier.of("canary", "t");
        catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), new HashMap<>());
        catalog.loadTable(id).updateProperties().set("k", "v").commit();
        assertThat(catalog.listTables(Namespace.of("canary"))).containsExactly(id);
      }
      // The reader reads, and is refused a write (403 audited).
      assertThat(
              send(floe.uri(), "GET", "/v1/default/namespaces/canary/tables/t", reader, null)
                  .status())
          .isEqualTo(200);
      assertThat(
              send(
                      floe.uri(),
                      "POST",
                      "/v1/default/namespaces",
                      reader,
                      "{\"namespace\":[\"nope\"]}")
                  .status())
          .isEqualTo(403);
      // A token of its own, then revoked and refused.
      String id =
          expect(
                  200,
                  floe.uri(),
                  "GET",
                  "/management/v1/principals/canary-revoked/tokens",
                  admin,
                  null)
              .json()
              .get("tokens")
              .get(0)
              .get("id")
              .asText();
      expect(204, floe.uri(), "DELETE", "/management/v1/tokens/" + id, admin, null);
      for (String refused : List.of(revoked, canaries.get(3), canaries.get(4))) {
        assertThat(send(floe.uri(), "GET", "/v1/default/namespaces", refused, null).status())
            .isEqualTo(401);
      }

      List<String> onTopics = scanTopics(FloeProcess.embeddedKafka(dataDir), canaries);
      assertThat(onTopics).as("canaries on topics").isEmpty();
      // The scanners do find what is there: the principals' names are on the log by design.
      assertThat(
              scanTopics(
                  FloeProcess.embeddedKafka(dataDir), List.of("canary-writer", "canary-revoked")))
          .isNotEmpty();
      floe.stop(); // SIGTERM: the clean shutdown flushes every log line before the scan
      serverLog = floe.log();
    }
    assertThat(serverLog).as("the server's log, scanned below").isNotEmptyFile();
    List<String> found = new ArrayList<>();
    found.addAll(scanFile(serverLog, canaries));
    try (Stream<Path> files = Files.walk(dataDir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        if (!file.getFileName().toString().equals("admin.token")) {
          found.addAll(scanFile(file, canaries));
        }
      }
    }
    assertThat(found).as("canaries in the log or the data directory").isEmpty();
    // ... and the file scan finds a token where one is meant to be.
    String admin = Files.readString(dataDir.resolve("admin.token")).trim();
    assertThat(scanFile(dataDir.resolve("admin.token"), List.of(admin))).hasSize(1);
  }

  private static List<String> scanFile(Path file, List<String> canaries) throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    List<String> found = new ArrayList<>();
    for (String canary : canaries) {
      if (text.contains(canary)) {
        found.add(canary.substring(0, 12) + "… in " + file);
      }
    }
    return found;
  }

  private static List<String> scanTopics(String bootstrap, List<String> canaries) throws Exception {
    List<String> found = new ArrayList<>();
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      Set<String> topics = admin.listTopics().names().get();
      assertThat(topics).contains("floe.events", "floe.audit", "floe.commands");
      Properties props = new Properties();
      props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
      try (KafkaConsumer<byte[], byte[]> consumer =
          new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
          consumer
              .partitionsFor(topic)
              .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        int records = 0;
        while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
          assertThat(System.nanoTime()).as("topics read in time").isLessThan(deadline);
          for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
            records++;
            StringBuilder all = new StringBuilder();
            append(all, record.key());
            append(all, record.value());
            for (Header header : record.headers()) {
              all.append(header.key());
              append(all, header.value());
            }
            for (String canary : canaries) {
              if (all.indexOf(canary) >= 0) {
                found.add(canary.substring(0, 12) + "… on " + record.topic());
              }
            }
          }
        }
        assertThat(records).as("records scanned").isGreaterThan(20);
      }
    }
    return found;
  }

  private static void append(StringBuilder all, byte[] bytes) {
    if (bytes != null) {
      all.append(new String(bytes, StandardCharsets.ISO_8859_1));
    }
  }
}
