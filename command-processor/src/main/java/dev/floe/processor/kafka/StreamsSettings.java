package dev.floe.processor.kafka;

import dev.floe.events.RecordLimits;
import dev.floe.events.Topics;
import dev.floe.infra.config.FloeConfig;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Kafka Streams settings. Exactly-once ({@code exactly_once_v2}) so an event, the store change and
 * the reply commit together. A command is answered only after its transaction commits, so the
 * commit interval is the floor of write latency: the default 100 ms would make every commit wait
 * ~100 ms. {@code commit.interval.ms=0} commits after each poll loop (under load a commit covers
 * every record of that poll: group commit); see docs/architecture.md for the measurements.
 */
public final class StreamsSettings {
  /** The longest the processor's transactions may stay open before the coordinator aborts them. */
  public static final int TRANSACTION_TIMEOUT_MS = 10_000;

  /**
   * How long a Kafka client of Floe waits for a broker's answer before trying again elsewhere: a
   * frozen broker accepts connections and answers nothing, and a client learns that its
   * leaderships moved only when a request to it times out, so a frozen broker costs each client
   * about this long, sometimes twice (its metadata request may go to the frozen broker too).
   */
  public static final int REQUEST_TIMEOUT_MS = 2_000;

  private StreamsSettings() {}

  /**
   * @param instanceId stable per data directory: the static group member id of this instance
   * @param groupCommit the same object the topology's processor was built with
   */
  public static Properties of(
      FloeConfig config,
      String bootstrapServers,
      String applicationServer,
      String instanceId,
      GroupCommit groupCommit) {
    Topics topics = new Topics(config.topicPrefix());
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, topics.applicationId());
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, config.commitIntervalMs());
    // How long the stream thread's poll blocks when nothing has arrived. A poll returns as soon as
    // a fetch brings records, and a requested commit happens in the same loop, so this bounds no
    // command's latency; with 10 ms the idle thread woke 100 times a second (bench/idle.sh).
    props.put(StreamsConfig.POLL_MS_CONFIG, 100);
    props.put(
        StreamsConfig.mainConsumerPrefix(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG),
        GroupCommit.Interceptor.class.getName());
    props.put(StreamsConfig.mainConsumerPrefix(GroupCommit.CONFIG), groupCommit);
    // Commands and steps are co-partitioned into one task. With the default (0) the task waits
    // for a fetch that proves the other input partition empty before processing, one extra
    // round trip per command. Order between the two topics carries no meaning (steps of one key
    // keep their order within floe.steps), so never wait.
    props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, -1L);
    props.put(StreamsConfig.STATE_DIR_CONFIG, config.dataDir().resolve("streams").toString());
    props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.streamThreads());
    // Warm copies of other instances' stores: a failed instance's partitions move to an instance
    // that restores only the tail of the changelog. Reads are still served by the active owner.
    props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, config.standbyReplicas());
    props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) config.replicationFactor());
    props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, applicationServer);
    // Under exactly-once nothing a task sends is readable before its transaction commits, and
    // the commit flushes the producer at once; so hold records until then and send each
    // transaction's records in one produce request instead of one request per record as it is
    // forwarded (fewer broker requests: +8-13 % commits/s at 4 clients, bench/notes.md).
    props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 50);
    // A create or register event carries the table's whole metadata document (RecordLimits).
    props.put(
        StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
        RecordLimits.MAX_REQUEST_BYTES);
    props.put(
        StreamsConfig.topicPrefix(TopicConfig.MAX_MESSAGE_BYTES_CONFIG),
        String.valueOf(RecordLimits.MAX_REQUEST_BYTES));
    props.put(StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MS_CONFIG), 5);
    props.put(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 100);
    // Static membership: a restarted instance rejoins at once, without a rebalance. A silent one
    // (dead, or paused) keeps its partitions for the session timeout: the first bound of an
    // instance failover (docs/architecture.md, "What bounds a failover").
    props.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), instanceId);
    int session = (int) config.sessionTimeout().toMillis();
    props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), session);
    props.put(
        StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), session / 4);
    // A transaction open across a broker's failure must outlive the requests in flight to it
    // (REQUEST_TIMEOUT_MS, then a retry on the new leader), else the coordinator aborts it under
    // the stream thread. A dead instance's open transaction is not waited out: the instance that
    // takes its tasks over aborts it at once (TakeoverFencing).
    props.put(
        StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
        TRANSACTION_TIMEOUT_MS);
    // A request in flight to a broker that stopped answering (paused, or its machine lost) waits
    // this long before the client looks for the partition's new leader; the default, 30 s, made a
    // 20 s broker pause stall commits for all of it.
    props.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
    // Floe has no global stores, so this changes nothing but the warning Kafka Streams 4.3 logs
    // at every start without it; it is the behaviour of Kafka Streams 5.0. The partition assignor
    // builds a configuration of its own from the main consumer's, hence the second entry.
    props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
    props.put(
        StreamsConfig.mainConsumerPrefix(
            StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG),
        true);
    return props;
  }
}
