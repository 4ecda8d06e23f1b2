package dev.floe.api.http;

import dev.floe.api.Uuid7;
import dev.floe.events.AuditRecord;
import dev.floe.events.Topics;
import java.time.Instant;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an {@link AuditRecord} to {@code floe.audit} for every request that changes or tries to
 * change the catalog (every method but GET and HEAD), whatever its outcome: changes, refused input,
 * failed commits with the requirement that failed. Reads are recorded too when {@code
 * floe.audit.reads=true}. Keyed by warehouse. Holds no token or credential: the principal is a
 * name, and messages are the ErrorModel messages the client saw.
 */
public final class KafkaAuditLog implements AuditLog, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaAuditLog.class);

  private final KafkaProducer<String, byte[]> producer;
  private final String topic;
  private final boolean reads;

  public KafkaAuditLog(String bootstrapServers, Topics topics, boolean reads) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    this.producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    this.topic = topics.audit();
    this.reads = reads;
  }

  @Override
  public void record(RequestContext request, String route, int status, ApiException error) {
    boolean isRead = route.startsWith("GET ") || route.startsWith("HEAD ");
    if (isRead && !reads) {
      return;
    }
    AuditRecord record =
        new AuditRecord(
            Uuid7.next().toString(),
            Instant.now().toString(),
            "anonymous",
            request.requestId(),
            request.header("Idempotency-Key"),
            request.method(),
            route,
            request.warehouse(),
            request.target(),
            status,
            error == null ? null : error.type(),
            error == null ? null : error.getMessage(),
            request.commandId());
    producer.send(
        new ProducerRecord<>(topic, request.warehouse(), record.toBytes()),
        (metadata, e) -> {
          if (e != null) {
            LOG.warn(
                "Cannot write an audit record for request {}: {}",
                request.requestId(),
                e.toString());
          }
        });
  }

  @Override
  public void close() {
    producer.close(java.time.Duration.ofSeconds(5));
  }
}
