package dev.floe.server.it.support;

import java.util.List;

/** What the fault harness runs on: Floe instances and the Kafka cluster they share. */
public interface FaultTarget {
  /** The instances' base URIs, in order. */
  List<String> uris();

  /** The Kafka cluster's bootstrap servers. */
  String bootstrapServers();

  default int size() {
    return uris().size();
  }
}
