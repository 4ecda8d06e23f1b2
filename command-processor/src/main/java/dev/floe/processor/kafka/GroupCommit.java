package dev.floe.processor.kafka;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * Group commit: one Kafka transaction for every record of a poll, committed as soon as the last of
 * them is processed.
 *
 * <p>With {@code commit.interval.ms=0} Kafka Streams commits after every loop iteration, and an
 * iteration processes one record per task, so each command paid for a whole transaction (produce,
 * flush, offsets, end: about 8 ms here) and one hot table topped out near 100 commits/s. A longer
 * interval batches, but a lone command then waits for the interval. Instead, the main consumer's
 * {@link Interceptor} notes the last offset each poll returned per partition, and the processor
 * asks for a commit ({@code ProcessorContext.commit()}) when the record it just processed is that
 * last offset: nothing more of its partition is waiting. A lone command is committed at once, as
 * before; commands that queued behind a transaction share the next one. The commit interval bounds
 * how long a transaction stays open if a request is somehow missed.
 */
public final class GroupCommit {
  /** The main consumer's setting that carries this object to its {@link Interceptor}. */
  static final String CONFIG = "floe.group-commit";

  private final Map<TopicPartition, Long> lastPolled = new ConcurrentHashMap<>();

  /**
   * Whether a record is the last one its partition's most recent poll returned. True for a
   * partition no poll has been seen for (a commit is then requested, as without group commit).
   */
  boolean isLastPolled(String topic, int partition, long offset) {
    Long last = lastPolled.get(new TopicPartition(topic, partition));
    return last == null || offset >= last;
  }

  /**
   * Asks Kafka Streams to commit once the record just processed is the last of its partition's
   * poll: called by the processor after each record.
   */
  public void commitIfLastPolled(ProcessorContext<?, ?> context) {
    var metadata = context.recordMetadata();
    if (metadata.isEmpty()
        || isLastPolled(
            metadata.get().topic(), metadata.get().partition(), metadata.get().offset())) {
      context.commit();
    }
  }

  void polled(ConsumerRecords<?, ?> records) {
    for (TopicPartition partition : records.partitions()) {
      var list = records.records(partition);
      if (!list.isEmpty()) {
        // Set, not max: after a rewind (an aborted transaction) the buffer was dropped and
        // the next poll starts again from the committed offset.
        lastPolled.put(partition, list.get(list.size() - 1).offset());
      }
    }
  }

  /**
   * Installed on Kafka Streams' main consumer ({@code interceptor.classes}); finds its {@link
   * GroupCommit} under {@link #CONFIG} in the consumer's configuration.
   */
  public static final class Interceptor implements ConsumerInterceptor<Object, Object> {
    private GroupCommit groupCommit;

    @Override
    public void configure(Map<String, ?> configs) {
      Object value = configs.get(CONFIG);
      if (!(value instanceof GroupCommit found)) {
        throw new IllegalStateException(
            "The consumer configuration has no " + CONFIG + " (got " + value + ")");
      }
      this.groupCommit = found;
    }

    @Override
    public ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
      groupCommit.polled(records);
      return records;
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {}

    @Override
    public void close() {}
  }
}
