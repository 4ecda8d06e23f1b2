package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.kafka.EmbeddedKafkaBroker;
import dev.floe.infra.kafka.HangingTransactions;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hanging transaction on a real broker: records of a transaction the coordinator has no record
 * of, at an epoch it has moved past. Made here by writing a transactional batch straight to a
 * partition with the broker's partition verification off (the state a SIGKILL left behind in
 * RestCatalogLifecycleIT, see {@link HangingTransactions}); it holds back every read_committed
 * reader of that partition until {@link HangingTransactions#abort} writes its abort marker.
 */
class HangingTransactionsIT {
  private static final String TRANSACTIONAL_ID = "app.processor-p1-1";

  @TempDir Path dir;

  @Test
  void aTransactionTheCoordinatorForgotIsAbortedAndReadersGoOn() throws Exception {
    try (EmbeddedKafkaBroker broker =
        new EmbeddedKafkaBroker(
            dir, 0, Map.of("transaction.partition.verification.enable", "false"))) {
      broker.start();
      String bootstrap = broker.bootstrapServers();
      try (Admin admin =
          Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
        admin
            .createTopics(
                List.of(
                    new NewTopic("app.data", 1, (short) 1), new NewTopic("other", 1, (short) 1)))
            .all()
            .get();
        TopicPartition data = new TopicPartition("app.data", 0);
        // The transactional id's first transaction: producer id 0, committed at epoch 0, which
        // moves the coordinator to epoch 1.
        long producerId;
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, TRANSACTIONAL_ID);
        try (KafkaProducer<String, String> producer =
            new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
          producer.initTransactions();
          producer.beginTransaction();
          producer.send(new ProducerRecord<>("other", "k", "v")).get();
          producer.commitTransaction();
        }
        var coordinator =
            admin.describeTransactions(List.of(TRANSACTIONAL_ID)).all().get().get(TRANSACTIONAL_ID);
        producerId = coordinator.producerId();
        assertThat(coordinator.producerEpoch()).isPositive();

        // The forgotten transaction: epoch 0, never added to the coordinator's transaction.
        produceTransactional(bootstrap, data, producerId, (short) 0, "hanging");
        // A later record, committed normally but by another producer.
        try (KafkaProducer<String, String> plain =
            new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                new StringSerializer(),
                new StringSerializer())) {
          plain.send(new ProducerRecord<>("app.data", "k", "after")).get();
        }
        ProducerState open = producerOf(admin, data, producerId);
        assertThat(open.currentTransactionStartOffset()).hasValue(0L);
        assertThat(readCommitted(bootstrap, data, Duration.ofSeconds(2)))
            .as("the open transaction holds the last stable offset back")
            .isEmpty();

        // Another application's ids and topics are left alone.
        assertThat(
                HangingTransactions.abort(
                    admin, "else-", n -> n.startsWith("app."), Duration.ofSeconds(10)))
            .isEmpty();
        List<AbortTransactionSpec> aborted =
            HangingTransactions.abort(
                admin, "app.processor-p1-", n -> n.startsWith("app."), Duration.ofSeconds(10));

        assertThat(aborted)
            .containsExactly(new AbortTransactionSpec(data, producerId, (short) 0, 0));
        assertThat(producerOf(admin, data, producerId).currentTransactionStartOffset()).isEmpty();
        assertThat(readCommitted(bootstrap, data, Duration.ofSeconds(10)))
            .as("the aborted record is skipped, the later one is read")
            .containsExactly("after");
        assertThat(
                HangingTransactions.abort(
                    admin, "app.processor-p1-", n -> n.startsWith("app."), Duration.ofSeconds(10)))
            .as("nothing hangs any more")
            .isEmpty();
      }
    }
  }

  private static ProducerState producerOf(Admin admin, TopicPartition partition, long producerId)
      throws Exception {
    return admin
        .describeProducers(List.of(partition))
        .all()
        .get()
        .get(partition)
        .activeProducers()
        .stream()
        .filter(p -> p.producerId() == producerId)
        .findFirst()
        .orElseThrow();
  }

  private static List<String> readCommitted(
      String bootstrap, TopicPartition partition, Duration wait) {
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed"),
            new StringDeserializer(),
            new StringDeserializer())) {
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long deadline = System.nanoTime() + wait.toNanos();
      while (values.isEmpty() && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          values.add(record.value());
        }
      }
    }
    return values;
  }

  /**
   * Writes one transactional batch straight to the partition's leader, without the client's
   * AddPartitionsToTxn (a Produce request of the version before transaction version 2).
   */
  private static void produceTransactional(
      String bootstrap, TopicPartition partition, long producerId, short epoch, String value)
      throws Exception {
    MemoryRecords records =
        MemoryRecords.withTransactionalRecords(
            Compression.NONE,
            producerId,
            epoch,
            0,
            new SimpleRecord(
                "k".getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)));
    ProduceRequestData request = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(10_000);
    request.setTransactionalId(TRANSACTIONAL_ID);
    ProduceRequestData.TopicProduceData topic =
        new ProduceRequestData.TopicProduceData().setName(partition.topic());
    topic
        .partitionData()
        .add(
            new ProduceRequestData.PartitionProduceData()
                .setIndex(partition.partition())
                .setRecords(records));
    request.topicData().add(topic);
    short version = ProduceRequest.LAST_STABLE_VERSION_BEFORE_TRANSACTION_V2;
    RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, version, "hanging-test", 1);
    ByteBuffer bytes =
        new ProduceRequest.Builder(version, version, request)
            .build(version)
            .serializeWithHeader(header);
    String[] hostPort = bootstrap.split(":");
    try (Socket socket = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      out.writeInt(bytes.remaining());
      out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
      out.flush();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      byte[] response = new byte[in.readInt()];
      in.readFully(response);
      ProduceResponse parsed =
          (ProduceResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(response), header);
      assertThat(parsed.errorCounts()).containsOnlyKeys(Errors.NONE);
    }
  }
}
