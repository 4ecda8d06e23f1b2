package dev.floe.processor.kafka;

import dev.floe.events.Topics;
import dev.floe.events.state.StoreNames;
import dev.floe.infra.storage.MetadataFiles;
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

  public static Topology build(Topics topics, MetadataFiles files) {
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
        PROCESSOR, () -> new CatalogProcessor(topics.steps(), files), "commands-in", "steps-in");
    topology.addStateStore(
        Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(StoreNames.DIRECTORY),
            Serdes.String(),
            Serdes.ByteArray()),
        PROCESSOR);
    topology.addStateStore(
        Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(StoreNames.TABLES), Serdes.String(), Serdes.ByteArray()),
        PROCESSOR);
    topology.addStateStore(
        Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(StoreNames.VIEWS), Serdes.String(), Serdes.ByteArray()),
        PROCESSOR);
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
