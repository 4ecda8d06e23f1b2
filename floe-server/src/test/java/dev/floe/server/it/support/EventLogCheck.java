package dev.floe.server.it.support;

import dev.floe.events.event.TableCommittedEvent;
import dev.floe.projections.replay.EventLogReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * The event log against the tables' final metadata: every snapshot a committed event added is in
 * its table's metadata, exactly one event added it, and every snapshot of the metadata has its
 * event. A write applied by an instance that had lost its partitions (a zombie whose transaction
 * was not fenced) would show as an event for a snapshot the lineage does not hold, or as a second
 * event for one it does.
 */
public final class EventLogCheck {
  /**
   * Events read, snapshots added by two events or more, snapshots of events absent from the
   * metadata, and snapshots of the metadata without an event.
   */
  public record Report(
      long events, long duplicates, long notInMetadata, long withoutEvent, List<String> problems) {}

  private EventLogCheck() {}

  public static Report check(String bootstrap, RESTCatalog catalog, List<TableIdentifier> tables) {
    Map<String, Set<Long>> metadata = new HashMap<>();
    for (TableIdentifier table : tables) {
      Set<Long> ids = new HashSet<>();
      for (Snapshot snapshot :
          ((HasTableOperations) catalog.loadTable(table)).operations().current().snapshots()) {
        ids.add(snapshot.snapshotId());
      }
      metadata.put(table.toString(), ids);
    }
    Map<String, Map<Long, Integer>> added = new HashMap<>();
    long[] events = {0};
    EventLogReader.read(
        bootstrap,
        "floe.events",
        EventLogReader.Until.END,
        envelope -> {
          if (envelope.data() instanceof TableCommittedEvent commit
              && metadata.containsKey(commit.identifier().toString())) {
            events[0]++;
            for (MetadataUpdate update : commit.updates()) {
              if (update instanceof MetadataUpdate.AddSnapshot add) {
                added
                    .computeIfAbsent(commit.identifier().toString(), t -> new HashMap<>())
                    .merge(add.snapshot().snapshotId(), 1, Integer::sum);
              }
            }
          }
        },
        (done, total) -> {});
    List<String> problems = new ArrayList<>();
    long duplicates = 0;
    long notInMetadata = 0;
    long withoutEvent = 0;
    for (Map.Entry<String, Set<Long>> table : metadata.entrySet()) {
      Map<Long, Integer> byEvent = added.getOrDefault(table.getKey(), Map.of());
      for (Map.Entry<Long, Integer> event : byEvent.entrySet()) {
        if (event.getValue() > 1) {
          duplicates++;
          problems.add(
              table.getKey() + ": snapshot " + event.getKey() + " added by " + event.getValue());
        }
        if (!table.getValue().contains(event.getKey())) {
          notInMetadata++;
          problems.add(table.getKey() + ": event for snapshot " + event.getKey() + " not there");
        }
      }
      for (long id : table.getValue()) {
        if (!byEvent.containsKey(id)) {
          withoutEvent++;
          problems.add(table.getKey() + ": snapshot " + id + " has no event");
        }
      }
    }
    return new Report(events[0], duplicates, notInMetadata, withoutEvent, problems);
  }
}
