package dev.floe.server.it.support;

import dev.floe.events.event.CatalogEvent;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.projections.replay.EventLogReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The event log of a server under test, read from its embedded broker. */
public final class ServerEvents {
  private ServerEvents() {}

  /**
   * Every event on {@code floe.events} of the server on {@code dataDir}, in each partition's order.
   */
  public static List<CatalogEvent> read(Path dataDir) {
    List<CatalogEvent> events = new ArrayList<>();
    EventLogReader.read(
        FloeProcess.embeddedKafka(dataDir),
        "floe.events",
        EventLogReader.Until.END,
        e -> events.add(e.data()),
        (done, total) -> {});
    return events;
  }
}
