package dev.floe.processor.kafka;

import dev.floe.events.Topics;
import dev.floe.events.state.StoreNames;
import dev.floe.infra.storage.MetadataFiles;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The processor's topology: commands and steps (co-partitioned, same keys) into one processor that
 * owns the directory and tables stores; events, steps and replies out.
 */
public final class CatalogTopology {
  static final String EVENTS_SINK = "events-out";
  static final String STEPS_SINK = "steps-out";
  static final String REPLIES_SINK = "replies-out";
  private static final String PROCESSOR = "catalog";

  private CatalogTopology() {}

  /** How long an Idempotency-Key is remembered unless configured otherwise. */
  static final Duration DEFAULT_IDEMPOTENCY_LIFETIME = Duration.ofMinutes(30);

  /** With the default Idempotency-Key lifetime. */
  public static Topology build(Topics topics, MetadataFiles files) {
    return build(topics, files, DEFAULT_IDEMPOTENCY_LIFETIME);
  }

  public static Topology build(Topics topics, MetadataFiles files, Duration idempotencyLifetime) {
    return build(topics, files, idempotencyLifetime, FaultPoints.NONE, new GroupCommit());
  }

  /**
   * @param faults where to halt the process on purpose (fault tests only)
   * @param groupCommit the same object {@link StreamsSettings#of} gave the main consumer
   */
  public static Topology build(
      Topics topics,
      MetadataFiles files,
      Duration idempotencyLifetime,
      FaultPoints faults,
      GroupCommit groupCommit) {
    return build(
        topics, files, idempotencyLifetime, faults, groupCommit, warehouse -> Duration.ZERO);
  }

  /**
   * @param recoveryPeriods each warehouse's recovery period ({@code
   *     floe.warehouse.<w>.recovery-period}): how long a dropped table or view is kept, restorable
   */
  public static Topology build(
      Topics topics,
      MetadataFiles files,
      Duration idempotencyLifetime,
      FaultPoints faults,
      GroupCommit groupCommit,
      Function<String, Duration> recoveryPeriods) {
    Topology topology = new Topology();
    topology.addSource(
        "commands-in",
        Serdes.String().deserializer(),
        Serdes.ByteArray().deserializer(),
        topics.commands());
    topology.addSource(
        "steps-in",
        Serdes.String().deserializer(),
        Serdes.ByteArray().deserializer(),
        topics.steps());
    topology.addProcessor(
        PROCESSOR,
        () ->
            new CatalogProcessor(
                topics.steps(), files, idempotencyLifetime, faults, groupCommit, recoveryPeriods),
        "commands-in",
        "steps-in");
    for (String store :
        List.of(
            StoreNames.DIRECTORY,
            StoreNames.TABLES,
            StoreNames.VIEWS,
            StoreNames.IDEMPOTENCY,
            StoreNames.ACCESS)) {
      topology.addStateStore(
          Stores.keyValueStoreBuilder(
              Stores.persistentKeyValueStore(store), Serdes.String(), Serdes.ByteArray()),
          PROCESSOR);
    }
    topology.addSink(
        EVENTS_SINK,
        topics.events(),
        Serdes.String().serializer(),
        Serdes.ByteArray().serializer(),
        PROCESSOR);
    topology.addSink(
        STEPS_SINK,
        topics.steps(),
        Serdes.String().serializer(),
        Serdes.ByteArray().serializer(),
        PROCESSOR);
    topology.addSink(
        REPLIES_SINK,
        topics.replies(),
        Serdes.String().serializer(),
        Serdes.ByteArray().serializer(),
        PROCESSOR);
    return topology;
  }
}
