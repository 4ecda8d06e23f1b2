package dev.floe.projections.events;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the instance's event streams that {@code floe.events} has new committed events: one
 * consumer per instance follows the log's end ({@code read_committed}) and wakes every listener;
 * the streams then read what is new through {@link EventLogPages}. A stream holds no consumer of
 * its own.
 */
public final class EventTail implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EventTail.class);

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  public EventTail(String bootstrapServers, String topic) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
    consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> partitions =
        consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(topic, p.partition()))
            .toList();
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    thread = new Thread(this::follow, "floe-events-tail");
    thread.setDaemon(true);
  }

  public EventTail start() {
    thread.start();
    return this;
  }

  /** Called, on the tail's thread, whenever new events are committed; returns the way to stop. */
  public Runnable listen(Runnable listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  private void follow() {
    while (running) {
      try {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
        if (!records.isEmpty()) {
          for (Runnable listener : listeners) {
            try {
              listener.run();
            } catch (RuntimeException e) {
              LOG.warn("An event stream's listener failed: {}", e.toString());
            }
          }
        }
      } catch (WakeupException e) {
        // closing
      } catch (RuntimeException e) {
        LOG.warn("The events tail could not read the log: {}", e.toString());
      }
    }
    consumer.close(Duration.ofSeconds(2));
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
  }
}
