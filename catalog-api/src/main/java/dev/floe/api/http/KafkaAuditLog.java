package dev.floe.api.http;

import dev.floe.client.Uuid7;
import dev.floe.events.AuditRecord;
import dev.floe.events.DataAccessRecord;
import dev.floe.events.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.rest.Endpoint;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an {@link AuditRecord} to {@code floe.audit} for every request that changes or tries to
 * change the catalog (every method but GET and HEAD, and but the events endpoint's {@code POST}, a
 * read), whatever its outcome: changes, refused input, failed commits with the requirement that
 * failed. Reads are recorded too when {@code floe.audit.reads=true}. Keyed by warehouse. Holds no
 * token or credential: the principal is a name, and messages are the ErrorModel messages the client
 * saw. Engines' S3 requests that the catalog signs or refuses are counted per principal, table,
 * operation and minute, on {@code floe.data-access} ({@link DataAccessRecord}).
 */
public final class KafkaAuditLog implements AuditLog, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaAuditLog.class);

  private final KafkaProducer<String, byte[]> producer;
  private final String topic;
  private final String dataAccessTopic;
  private final boolean reads;

  /** One minute's count of one principal's signed and refused requests to one table. */
  private record AccessKey(
      long minute, String warehouse, String principal, String table, boolean write) {}

  private final Map<AccessKey, long[]> access = new HashMap<>();

  /** Writes the counts of the minutes that are over, every few seconds. */
  private final ScheduledExecutorService flusher =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "floe-data-access");
            thread.setDaemon(true);
            return thread;
          });

  /**
   * {@code KafkaProducer.send} blocks its caller while it has no metadata for the topic (after a
   * broker restart, up to {@code max.block.ms}, 60 s), and {@link #record} runs on the event loop:
   * sends go through a thread of their own, so a broker restart never stalls every request of the
   * instance. If that thread falls 10,000 records behind, further records are dropped with a
   * warning, as a send that fails is.
   */
  private final ThreadPoolExecutor sender =
      new ThreadPoolExecutor(
          1,
          1,
          0,
          TimeUnit.MILLISECONDS,
          new ArrayBlockingQueue<>(10_000),
          runnable -> {
            Thread thread = new Thread(runnable, "floe-audit-sender");
            thread.setDaemon(true);
            return thread;
          },
          (runnable, executor) -> LOG.warn("Audit records are backing up; dropping one"));

  public KafkaAuditLog(String bootstrapServers, Topics topics, boolean reads) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    this.producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    this.topic = topics.audit();
    this.dataAccessTopic = topics.dataAccess();
    flusher.scheduleWithFixedDelay(() -> flushAccess(false), 5, 5, TimeUnit.SECONDS);
    this.reads = reads;
  }

  /**
   * Routes that change nothing by {@code POST} (a body holds their query), audited as reads: the
   * events query, the signing of an engine's S3 request (one per object request: its refusals are
   * recorded, each one), and scan planning (also its cancel, which holds nothing to release).
   */
  static final Set<String> READS_BY_POST =
      Set.of(
          "POST " + EventsHandlers.V1_EVENTS.path(),
          "POST " + Endpoint.V1_TABLE_REMOTE_SIGN.path(),
          "POST " + Endpoint.V1_SUBMIT_TABLE_SCAN_PLAN.path(),
          "POST " + Endpoint.V1_FETCH_TABLE_SCAN_PLAN_TASKS.path(),
          "DELETE " + Endpoint.V1_CANCEL_TABLE_SCAN_PLAN.path());

  @Override
  public void record(RequestContext request, String route, int status, ApiException error) {
    boolean isRead =
        route.startsWith("GET ") || route.startsWith("HEAD ") || READS_BY_POST.contains(route);
    // Refusals of reads (401, 403) are always recorded; other reads only when configured.
    if (isRead && !reads && status != 401 && status != 403) {
      return;
    }
    AuditRecord record =
        new AuditRecord(
            Uuid7.next().toString(),
            Instant.now().toString(),
            request.principalName(),
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
    ProducerRecord<String, byte[]> audit =
        new ProducerRecord<>(topic, request.warehouse(), record.toBytes());
    String requestId = request.requestId();
    sender.execute(
        () -> {
          try {
            producer.send(
                audit,
                (metadata, e) -> {
                  if (e != null) {
                    LOG.warn(
                        "Cannot write an audit record for request {}: {}", requestId, e.toString());
                  }
                });
          } catch (RuntimeException e) {
            LOG.warn("Cannot write an audit record for request {}: {}", requestId, e.toString());
          }
        });
  }

  @Override
  public void dataAccess(RequestContext request, String table, boolean write, boolean signed) {
    long minute = System.currentTimeMillis() / 60_000;
    AccessKey key =
        new AccessKey(minute, request.warehouse(), request.principalName(), table, write);
    synchronized (access) {
      long[] counts = access.computeIfAbsent(key, k -> new long[2]);
      counts[signed ? 0 : 1]++;
    }
  }

  /** Sends the counts of the minutes before this one; with {@code all}, this one's too. */
  private void flushAccess(boolean all) {
    long now = System.currentTimeMillis() / 60_000;
    List<DataAccessRecord> done = new ArrayList<>();
    synchronized (access) {
      for (Iterator<Map.Entry<AccessKey, long[]>> it = access.entrySet().iterator();
          it.hasNext(); ) {
        Map.Entry<AccessKey, long[]> entry = it.next();
        AccessKey key = entry.getKey();
        if (all || key.minute() < now) {
          done.add(
              new DataAccessRecord(
                  Instant.ofEpochMilli(key.minute() * 60_000).toString(),
                  key.warehouse(),
                  key.principal(),
                  key.table(),
                  key.write() ? "write" : "read",
                  entry.getValue()[0],
                  entry.getValue()[1]));
          it.remove();
        }
      }
    }
    for (DataAccessRecord record : done) {
      try {
        producer.send(
            new ProducerRecord<>(dataAccessTopic, record.warehouse(), record.toBytes()),
            (metadata, e) -> {
              if (e != null) {
                LOG.warn("Cannot write a data access record: {}", e.toString());
              }
            });
      } catch (RuntimeException e) {
        LOG.warn("Cannot write a data access record: {}", e.toString());
      }
    }
  }

  @Override
  public void close() {
    flusher.shutdown();
    try {
      flusher.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    flushAccess(true);
    sender.shutdown();
    try {
      sender.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(5));
  }
}
