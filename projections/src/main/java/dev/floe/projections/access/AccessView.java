package dev.floe.projections.access;

import dev.floe.events.access.AccessEntries.Entry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every instance's copy of the access-control state: it follows the changelog of the processor's
 * {@code floe-access} store ({@code read_committed}, from the beginning) and publishes an {@link
 * AccessSnapshot} after each batch. {@link #awaitCaughtUp} waits until everything committed so far
 * is applied: the management API calls it on every instance before it answers, so a revocation
 * holds on the next request wherever it lands.
 */
public final class AccessView implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AccessView.class);

  private final String topic;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Admin admin;
  private final Thread thread;
  private final Map<String, Entry> entries = new HashMap<>();
  private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
  private final Object progress = new Object();
  private volatile AccessSnapshot snapshot = AccessSnapshot.EMPTY;
  private volatile boolean running = true;
  private List<TopicPartition> partitions;

  /**
   * @param changelogTopic the access store's changelog ({@code <application
   *     id>-floe-access-changelog})
   */
  public AccessView(String bootstrapServers, String changelogTopic) {
    this.topic = changelogTopic;
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    this.consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    this.thread = new Thread(this::follow, "floe-access-view");
    thread.setDaemon(true);
  }

  /** Starts following; returns once everything committed at start is applied. */
  public AccessView start(Duration timeout) {
    partitions =
        consumer.partitionsFor(topic, Duration.ofSeconds(60)).stream()
            .map(p -> new TopicPartition(topic, p.partition()))
            .toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    thread.start();
    if (!awaitCaughtUp(timeout)) {
      throw new IllegalStateException("The access-control state did not load within " + timeout);
    }
    return this;
  }

  public AccessSnapshot snapshot() {
    return snapshot;
  }

  /**
   * Waits until every access change committed before this call is in the snapshot.
   *
   * <p>The target is each partition's high watermark, not its last stable offset: a change's
   * transaction is committed once its coordinator has decided, but the markers that make it
   * readable are written partition by partition, so the caller may already hold the reply (its
   * partition's marker written) while the access changelog's last stable offset still stands before
   * the change. Every record of the change is below the high watermark, and this view's {@code
   * read_committed} position passes it only once the markers of everything below it are written (a
   * transaction still open there is waited for until it ends).
   */
  public boolean awaitCaughtUp(Duration timeout) {
    Map<TopicPartition, Long> ends;
    try {
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      partitions.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
          admin
              .listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED))
              .all()
              .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      ends = new HashMap<>();
      result.forEach((tp, info) -> ends.put(tp, info.offset()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception e) {
      LOG.warn("Cannot read the end of {}: {}", topic, e.toString());
      return false;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (progress) {
      while (!reached(ends)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          progress.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return true;
  }

  private boolean reached(Map<TopicPartition, Long> ends) {
    return ends.entrySet().stream()
        .allMatch(e -> positions.getOrDefault(e.getKey(), 0L) >= e.getValue());
  }

  private void follow() {
    while (running) {
      try {
        ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(100));
        boolean changed = false;
        for (ConsumerRecord<String, byte[]> record : records) {
          changed |= apply(record.key(), record.value());
        }
        if (changed) {
          snapshot = new AccessSnapshot(entries);
        }
        for (TopicPartition tp : partitions) {
          positions.put(tp, consumer.position(tp));
        }
        synchronized (progress) {
          progress.notifyAll();
        }
      } catch (WakeupException e) {
        // closing
      } catch (RuntimeException e) {
        if (running) {
          LOG.warn("The access view could not poll {}: {}", topic, e.toString());
        }
      }
    }
    consumer.close();
  }

  private boolean apply(String key, byte[] value) {
    if (key == null || !key.contains("/")) {
      return false; // the sequence counter
    }
    if (value == null) {
      return entries.remove(key) != null;
    }
    try {
      entries.put(key, Entry.fromBytes(value));
      return true;
    } catch (RuntimeException e) {
      LOG.warn("The access view skips an unreadable entry: {}", e.toString());
      return false;
    }
  }

  @Override
  public void close() {
    running = false;
    if (thread.isAlive()) {
      consumer.wakeup();
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } else {
      consumer.close(); // never started: the follow loop will not close it
    }
    admin.close(Duration.ofSeconds(5));
  }
}
