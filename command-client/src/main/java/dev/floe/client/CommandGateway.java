package dev.floe.client;

import dev.floe.events.CommandReply;
import dev.floe.events.FloeJson;
import dev.floe.events.RecordLimits;
import dev.floe.events.Topics;
import dev.floe.events.command.CatalogCommand;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends commands to {@code floe.commands} and completes each caller's future when its reply arrives
 * on {@code floe.replies}. Replies are read with {@code read_committed}: a reply is seen only once
 * the transaction holding the change has committed. A reply that does not arrive in time fails the
 * future with a {@link TimeoutException}: the outcome is then unknown, never a rejection.
 */
public final class CommandGateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CommandGateway.class);
  private static final int MAX_PENDING = 10_000;
  private static final int REQUEST_TIMEOUT_MS = 2_000;

  private final String instanceId;
  private final Topics topics;
  private final Duration timeout;
  private final KafkaProducer<String, byte[]> producer;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Map<String, CompletableFuture<CommandReply>> pending = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "floe-reply-timeouts"));

  /**
   * {@code KafkaProducer.send} blocks its caller while it has no metadata for the topic (after a
   * broker restart, up to {@code max.block.ms}, 60 s), and {@link #submit} is called on the event
   * loop: sends go through a thread of their own so the instance keeps answering meanwhile. The
   * queue is bounded by {@code MAX_PENDING}: every queued send has a pending reply.
   */
  private final ExecutorService sender =
      Executors.newSingleThreadExecutor(r -> daemon(r, "floe-command-sender"));

  private final Thread replyThread;
  private volatile boolean running = true;

  public CommandGateway(
      String bootstrapServers, Topics topics, String instanceId, Duration timeout) {
    this.instanceId = instanceId;
    this.topics = topics;
    this.timeout = timeout;
    this.producer =
        new KafkaProducer<>(
            producerProps(bootstrapServers), new StringSerializer(), new ByteArraySerializer());
    this.consumer =
        new KafkaConsumer<>(
            consumerProps(bootstrapServers), new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> partitions =
        consumer.partitionsFor(topics.replies(), Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(p.topic(), p.partition()))
            .toList();
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    // Resolve the end offsets now, before any command is sent, so no reply can be skipped.
    partitions.forEach(consumer::position);
    this.replyThread = new Thread(this::readReplies, "floe-replies");
    replyThread.setDaemon(true);
    replyThread.start();
  }

  public String instanceId() {
    return instanceId;
  }

  public CompletableFuture<CommandReply> submit(CatalogCommand command) {
    CompletableFuture<CommandReply> future = new CompletableFuture<>();
    if (pending.size() >= MAX_PENDING) {
      future.completeExceptionally(new IllegalStateException("Too many commands in flight"));
      return future;
    }
    String commandId = command.header().commandId();
    pending.put(commandId, future);
    timer.schedule(
        () -> {
          CompletableFuture<CommandReply> expired = pending.remove(commandId);
          if (expired != null) {
            expired.completeExceptionally(new TimeoutException("No reply within " + timeout));
          }
        },
        timeout.toMillis(),
        TimeUnit.MILLISECONDS);
    ProducerRecord<String, byte[]> record =
        new ProducerRecord<>(topics.commands(), command.key(), FloeJson.toBytes(command));
    try {
      sender.execute(() -> send(commandId, record));
    } catch (RejectedExecutionException e) {
      fail(commandId, new IllegalStateException("Shutting down"));
    }
    return future;
  }

  private void send(String commandId, ProducerRecord<String, byte[]> record) {
    try {
      producer.send(
          record,
          (metadata, error) -> {
            if (error != null) {
              fail(commandId, error);
            }
          });
    } catch (RuntimeException e) {
      fail(commandId, e);
    }
  }

  private void fail(String commandId, Throwable error) {
    CompletableFuture<CommandReply> failed = pending.remove(commandId);
    if (failed != null) {
      failed.completeExceptionally(error);
    }
  }

  private void readReplies() {
    while (running) {
      try {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          if (!instanceId.equals(record.key())) {
            continue;
          }
          CommandReply reply;
          try {
            reply = FloeJson.fromBytes(record.value(), CommandReply.class);
          } catch (RuntimeException e) {
            LOG.error("Skipping an unreadable reply at {}", record.offset(), e);
            continue;
          }
          CompletableFuture<CommandReply> future = pending.remove(reply.commandId());
          if (future != null) {
            future.complete(reply);
          }
        }
      } catch (WakeupException e) {
        // closing
      } catch (RuntimeException e) {
        if (running) {
          LOG.error("Reply consumer failed; retrying", e);
        }
      }
    }
    consumer.close();
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    try {
      replyThread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sender.shutdown();
    try {
      sender.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(5));
    timer.shutdownNow();
    pending
        .values()
        .forEach(f -> f.completeExceptionally(new IllegalStateException("Shutting down")));
  }

  private static Properties producerProps(String bootstrapServers) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, RecordLimits.MAX_REQUEST_BYTES);
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
    // A request in flight to a broker that stopped answering waits this long before the producer
    // looks for the partition's new leader (a floe broker's leaderships move after its 2 s
    // session); each wait on a frozen broker is one such timeout, and a client may meet it twice.
    props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
    return props;
  }

  private static Properties consumerProps(String bootstrapServers) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
    props.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
    return props;
  }

  private static Thread daemon(Runnable runnable, String name) {
    Thread thread = new Thread(runnable, name);
    thread.setDaemon(true);
    return thread;
  }
}
