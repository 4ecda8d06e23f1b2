package dev.floe.projections.events;

import dev.floe.events.event.EventEnvelope;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pages through {@code floe.events} for the events endpoint. A page is read by one of a few
 * consumers the instance shares among all requests (never one per request), {@code read_committed},
 * so only committed changes appear, and a multi-table transaction's events (one Kafka transaction)
 * appear all or none.
 *
 * <p>Within a page, events are merged across partitions by the time the API accepted their command
 * (then partition, then offset): an object's events are on one partition, in commit order. A page
 * takes events from the head of each partition only, so the next positions skip nothing, and reads
 * a partition only while it has no event queued, so a small page reads little more than itself. It
 * stops when it is full (extended to the rest of the last event's request, when those are read),
 * when every partition is read to the end it had when the page began, or when it has looked at
 * {@code scanLimit} events.
 */
public final class EventLogPages implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EventLogPages.class);
  private static final Duration POLL = Duration.ofMillis(50);

  /** An event as read, with where it was read. */
  public record Item(int partition, long offset, long timestampMs, EventEnvelope envelope) {}

  /**
   * A page: its events, the positions to continue from (by partition), and how many events each
   * request read in this page had in all that was read (for {@code request-event-count}).
   */
  public record Page(
      List<Item> items,
      List<Long> next,
      Map<String, Integer> requestCounts,
      List<List<Long>> after) {

    /** The positions to continue from right after the {@code index}th event of the page. */
    public List<Long> after(int index) {
      return after.get(index);
    }
  }

  /** Every reader stayed busy: the request is refused rather than queued without end. */
  public static final class BusyException extends RuntimeException {
    public BusyException(String message) {
      super(message);
    }
  }

  /** How long a page waits for a free reader before it is refused. */
  public static final Duration WAIT = Duration.ofSeconds(10);

  /** A position before the log's retention: its events are gone. */
  public static final class ExpiredPositionException extends RuntimeException {
    public ExpiredPositionException(String message) {
      super(message);
    }
  }

  private final String bootstrapServers;
  private final String topic;
  private final BlockingQueue<KafkaConsumer<String, byte[]>> idle;
  private final AtomicInteger created = new AtomicInteger();
  private final int readers;
  private final List<KafkaConsumer<String, byte[]>> all = new ArrayList<>();

  /**
   * @param readers how many consumers the instance may open for pages: requests beyond that wait
   */
  public EventLogPages(String bootstrapServers, String topic, int readers) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.readers = readers;
    this.idle = new ArrayBlockingQueue<>(readers);
  }

  /** How many consumers the instance may open for pages. */
  public int readers() {
    return readers;
  }

  /**
   * Reads one page.
   *
   * @param from the positions to start from, by partition; null for the start of the log, or for
   *     {@code sinceMs}
   * @param sinceMs with no {@code from}: start at the first event accepted at or after this time
   * @param keep which events the page holds; the others are passed over
   * @param counted which events count in a request's {@code request-event-count} (those the caller
   *     may see, whether or not the filters keep them)
   * @throws ExpiredPositionException when a position is before what the log still holds
   * @throws BusyException when every reader stayed busy for {@link #WAIT}
   */
  public Page read(
      List<Long> from,
      Long sinceMs,
      int pageSize,
      int scanLimit,
      Predicate<Item> keep,
      Predicate<Item> counted)
      throws InterruptedException {
    KafkaConsumer<String, byte[]> consumer = borrow();
    try {
      return read(consumer, from, sinceMs, pageSize, scanLimit, keep, counted);
    } finally {
      consumer.unsubscribe();
      idle.put(consumer);
    }
  }

  private Page read(
      KafkaConsumer<String, byte[]> consumer,
      List<Long> from,
      Long sinceMs,
      int pageSize,
      int scanLimit,
      Predicate<Item> keep,
      Predicate<Item> counted) {
    List<TopicPartition> partitions = partitions(consumer);
    // Assigned before their offsets are asked for: the answers update the positions of assigned
    // partitions, and Kafka warns for each partition that is not (eight lines a page).
    consumer.assign(partitions);
    Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions);
    Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
    Map<TopicPartition, Long> start = new HashMap<>();
    Map<TopicPartition, OffsetAndTimestamp> byTime =
        from == null && sinceMs != null
            ? consumer.offsetsForTimes(toAll(partitions, sinceMs))
            : Map.of();
    for (TopicPartition tp : partitions) {
      long position;
      if (from != null) {
        position = tp.partition() < from.size() ? from.get(tp.partition()) : 0L;
        if (position < begin.get(tp)) {
          throw new ExpiredPositionException(
              "The continuation-token points before the events the log still holds (partition "
                  + tp.partition()
                  + " starts at "
                  + begin.get(tp)
                  + ", the token at "
                  + position
                  + ")");
        }
      } else if (sinceMs != null) {
        OffsetAndTimestamp found = byTime.get(tp);
        position = found == null ? end.get(tp) : found.offset();
      } else {
        position = begin.get(tp);
      }
      start.put(tp, position);
    }
    start.forEach(consumer::seek);

    Map<Integer, Deque<Item>> read = new HashMap<>();
    partitions.forEach(tp -> read.put(tp.partition(), new ArrayDeque<>()));
    Map<String, Integer> requestCounts = new HashMap<>();
    int scanned = 0;
    int idlePolls = 0;
    List<Item> page = new ArrayList<>();
    List<List<Long>> after = new ArrayList<>();
    String lastRequest = null;
    while (true) {
      // Every partition not read to its end needs its next event before any is taken.
      while (scanned < scanLimit && idlePolls < 20 && needsMore(consumer, partitions, end, read)) {
        int before = scanned;
        for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
          scanned++;
          Item item = item(record);
          if (item.envelope() != null && counted.test(item)) {
            requestCounts.merge(item.envelope().data().commandId(), 1, Integer::sum);
          }
          read.get(record.partition()).add(item);
        }
        idlePolls = scanned == before ? idlePolls + 1 : 0;
      }
      if (needsMore(consumer, partitions, end, read)) {
        // A partition read only in part may hold an earlier event than any head: stop here.
        break;
      }
      Item head = null;
      for (Deque<Item> items : read.values()) {
        Item candidate = items.peekFirst();
        if (candidate != null && (head == null || earlier(candidate, head))) {
          head = candidate;
        }
      }
      if (head == null) {
        break;
      }
      boolean full = page.size() >= pageSize;
      if (full
          && (lastRequest == null
              || head.envelope() == null
              || !lastRequest.equals(head.envelope().data().commandId()))) {
        break;
      }
      read.get(head.partition()).pollFirst();
      if (head.envelope() != null && keep.test(head)) {
        page.add(head);
        after.add(positions(consumer, partitions, read));
        lastRequest = head.envelope().data().commandId();
      } else if (full) {
        break;
      }
    }
    return new Page(page, positions(consumer, partitions, read), requestCounts, after);
  }

  /** Where each partition continues: its next queued event, or where its reading stopped. */
  private static List<Long> positions(
      KafkaConsumer<String, byte[]> consumer,
      List<TopicPartition> partitions,
      Map<Integer, Deque<Item>> read) {
    List<Long> next = new ArrayList<>();
    for (TopicPartition tp : partitions) {
      Item unread = read.get(tp.partition()).peekFirst();
      next.add(unread != null ? unread.offset() : consumer.position(tp));
    }
    return next;
  }

  /** The positions of the log's end now: where a stream that starts live continues from. */
  public List<Long> end() throws InterruptedException {
    KafkaConsumer<String, byte[]> consumer = borrow();
    try {
      List<TopicPartition> partitions = partitions(consumer);
      consumer.assign(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      return partitions.stream().map(end::get).toList();
    } finally {
      consumer.unsubscribe();
      idle.put(consumer);
    }
  }

  private List<TopicPartition> partitions(KafkaConsumer<String, byte[]> consumer) {
    return consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
        .map(p -> new TopicPartition(topic, p.partition()))
        .sorted(Comparator.comparingInt(TopicPartition::partition))
        .toList();
  }

  private static boolean earlier(Item a, Item b) {
    if (a.timestampMs() != b.timestampMs()) {
      return a.timestampMs() < b.timestampMs();
    }
    if (a.partition() != b.partition()) {
      return a.partition() < b.partition();
    }
    return a.offset() < b.offset();
  }

  /** Some partition has no event queued but is not read to the end it had when the page began. */
  private static boolean needsMore(
      KafkaConsumer<String, byte[]> consumer,
      List<TopicPartition> partitions,
      Map<TopicPartition, Long> end,
      Map<Integer, Deque<Item>> read) {
    for (TopicPartition tp : partitions) {
      if (read.get(tp.partition()).isEmpty() && consumer.position(tp) < end.get(tp)) {
        return true;
      }
    }
    return false;
  }

  private static Item item(ConsumerRecord<String, byte[]> record) {
    EventEnvelope envelope;
    try {
      envelope = EventEnvelope.fromBytes(record.value());
    } catch (RuntimeException e) {
      LOG.warn(
          "The events endpoint passes over an unreadable event at {}-{}: {}",
          record.partition(),
          record.offset(),
          e.toString());
      envelope = null;
    }
    return new Item(record.partition(), record.offset(), record.timestamp(), envelope);
  }

  private static Map<TopicPartition, Long> toAll(List<TopicPartition> partitions, long time) {
    Map<TopicPartition, Long> times = new HashMap<>();
    partitions.forEach(tp -> times.put(tp, time));
    return times;
  }

  private KafkaConsumer<String, byte[]> borrow() throws InterruptedException {
    KafkaConsumer<String, byte[]> consumer = idle.poll();
    if (consumer != null) {
      return consumer;
    }
    synchronized (all) {
      if (created.get() < readers) {
        created.incrementAndGet();
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        // A page takes what is there, and never waits for more to arrive.
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        KafkaConsumer<String, byte[]> fresh =
            new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        all.add(fresh);
        return fresh;
      }
    }
    KafkaConsumer<String, byte[]> freed = idle.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    if (freed == null) {
      throw new BusyException(
          "Every reader of the event log stayed busy for " + WAIT.toSeconds() + " s: retry later");
    }
    return freed;
  }

  @Override
  public void close() {
    synchronized (all) {
      for (KafkaConsumer<String, byte[]> consumer : all) {
        try {
          consumer.close(Duration.ofSeconds(2));
        } catch (RuntimeException e) {
          LOG.debug("Closing an events reader: {}", e.toString());
        }
      }
    }
  }
}
