package dev.floe.projections.lineage;

import dev.floe.events.Keys;
import dev.floe.events.event.AccessChangedEvent;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.event.EventVisitor;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespaceExpungedEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.events.event.NamespaceRestoredEvent;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.TableFilesPurgedEvent;
import dev.floe.events.event.TableMaintainedEvent;
import dev.floe.events.event.TablePurgeRefusedEvent;
import dev.floe.events.event.TableRegisteredEvent;
import dev.floe.events.event.TableRenamedEvent;
import dev.floe.events.event.TableRestoredEvent;
import dev.floe.events.event.ViewCreatedEvent;
import dev.floe.events.event.ViewDroppedEvent;
import dev.floe.events.event.ViewExpungedEvent;
import dev.floe.events.event.ViewRegisteredEvent;
import dev.floe.events.event.ViewRenamedEvent;
import dev.floe.events.event.ViewReplacedEvent;
import dev.floe.events.event.ViewRestoredEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lineage projection: which sources each snapshot was derived from, as engines record them in
 * the snapshot summary ({@code floe.source.repo}, {@code floe.source.ref}, {@code
 * floe.source.snapshot-id}, {@code floe.source.query}), read from {@code floe.events} from the
 * beginning and followed. Renames carry a table's lineage to its new name; a drop forgets it. It
 * also keeps each table's last maintenance run ({@code floe.table.maintained}), by table uuid.
 * Eventually consistent: it trails the log by one poll.
 */
public final class LineageIndex implements AutoCloseable {
  public static final String PREFIX = "floe.source.";
  private static final Logger LOG = LoggerFactory.getLogger(LineageIndex.class);

  /** One snapshot's sources. */
  public record SnapshotLineage(
      long snapshotId, long timestampMillis, Map<String, String> sources) {}

  /** A table's lineage, snapshot by snapshot, oldest first. */
  public record TableLineage(
      String warehouse, TableIdentifier table, List<SnapshotLineage> snapshots) {}

  private final Map<String, TableLineage> tables = new ConcurrentHashMap<>();

  /** Dropped tables' lineage, kept for a restore until they are expunged. */
  private final Map<String, TableLineage> kept = new ConcurrentHashMap<>();

  /** A table's maintenance run, and when it was recorded (RFC 3339). */
  public record MaintenanceRun(TableMaintainedEvent event, String time) {}

  /** The last maintenance run of each table, by table uuid. */
  private final Map<String, MaintenanceRun> maintenance = new ConcurrentHashMap<>();

  private final EventVisitor<Void> fold = new Fold();

  /** When the event being applied was accepted (RFC 3339); the following thread's only. */
  private String appliedTime = "";

  private final Predicate<String> keepsDropped;

  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * @param keepsDropped whether a warehouse keeps dropped tables for a recovery period (so their
   *     lineage is kept for a restore until they are expunged)
   */
  public LineageIndex(String bootstrapServers, String eventsTopic, Predicate<String> keepsDropped) {
    this.keepsDropped = keepsDropped;
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    this.consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> partitions =
        consumer.partitionsFor(eventsTopic, Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(eventsTopic, p.partition()))
            .toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    this.thread = new Thread(this::follow, "floe-lineage");
    thread.setDaemon(true);
  }

  public LineageIndex start() {
    thread.start();
    return this;
  }

  public Optional<TableLineage> table(String warehouse, TableIdentifier table) {
    return Optional.ofNullable(tables.get(Keys.table(warehouse, table)));
  }

  /** The table's last maintenance run, if it had one. */
  public Optional<MaintenanceRun> lastMaintenance(String tableUuid) {
    return Optional.ofNullable(maintenance.get(tableUuid));
  }

  /** Tables with at least one snapshot derived from the given source repository. */
  public List<TableLineage> derivedFrom(String repo) {
    List<TableLineage> derived = new ArrayList<>();
    for (TableLineage lineage : tables.values()) {
      List<SnapshotLineage> matching =
          lineage.snapshots().stream()
              .filter(s -> repo.equals(s.sources().get(PREFIX + "repo")))
              .toList();
      if (!matching.isEmpty()) {
        derived.add(new TableLineage(lineage.warehouse(), lineage.table(), matching));
      }
    }
    derived.sort(Comparator.comparing(l -> l.warehouse() + "/" + l.table()));
    return derived;
  }

  private void follow() {
    while (running) {
      try {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          try {
            EventEnvelope envelope = EventEnvelope.fromBytes(record.value());
            appliedTime = envelope.time();
            apply(envelope.data());
          } catch (RuntimeException e) {
            LOG.warn(
                "Lineage skips an unreadable event at offset {}: {}",
                record.offset(),
                e.toString());
          }
        }
      } catch (WakeupException e) {
        // closing
      }
    }
    consumer.close();
  }

  void apply(CatalogEvent event) {
    event.accept(fold);
  }

  /** A table's lineage follows its creation, commits, renames, drops and restores. */
  private final class Fold implements EventVisitor<Void> {
    @Override
    public Void namespaceCreated(NamespaceCreatedEvent e) {
      return null;
    }

    @Override
    public Void namespacePropertiesUpdated(NamespacePropertiesUpdatedEvent e) {
      return null;
    }

    @Override
    public Void namespaceDropped(NamespaceDroppedEvent e) {
      return null;
    }

    @Override
    public Void namespaceRestored(NamespaceRestoredEvent e) {
      return null;
    }

    @Override
    public Void namespaceExpunged(NamespaceExpungedEvent e) {
      return null;
    }

    @Override
    public Void tableCreated(TableCreatedEvent e) {
      tables.put(
          Keys.table(e.warehouse(), e.identifier()),
          new TableLineage(e.warehouse(), e.identifier(), List.of()));
      return null;
    }

    @Override
    public Void tableRegistered(TableRegisteredEvent e) {
      tables.put(
          Keys.table(e.warehouse(), e.identifier()),
          new TableLineage(e.warehouse(), e.identifier(), List.of()));
      return null;
    }

    @Override
    public Void tableCommitted(TableCommittedEvent e) {
      List<SnapshotLineage> added = new ArrayList<>();
      for (MetadataUpdate update : e.updates()) {
        if (update instanceof MetadataUpdate.AddSnapshot add) {
          Map<String, String> sources = sources(add.snapshot());
          if (!sources.isEmpty()) {
            added.add(
                new SnapshotLineage(
                    add.snapshot().snapshotId(), add.snapshot().timestampMillis(), sources));
          }
        }
      }
      if (!added.isEmpty()) {
        tables.compute(
            Keys.table(e.warehouse(), e.identifier()),
            (key, current) -> {
              List<SnapshotLineage> all =
                  new ArrayList<>(current == null ? List.of() : current.snapshots());
              all.addAll(added);
              return new TableLineage(e.warehouse(), e.identifier(), List.copyOf(all));
            });
      }
      return null;
    }

    @Override
    public Void tableDropped(TableDroppedEvent e) {
      TableLineage dropped = tables.remove(Keys.table(e.warehouse(), e.identifier()));
      if (dropped != null && !dropped.snapshots().isEmpty() && keepsDropped.test(e.warehouse())) {
        kept.put(keptKey(e.warehouse(), e.tableUuid(), e.metadataLocation()), dropped);
      }
      return null;
    }

    @Override
    public Void tableRenamed(TableRenamedEvent e) {
      TableLineage moved = tables.remove(Keys.table(e.warehouse(), e.from()));
      tables.put(
          Keys.table(e.warehouse(), e.to()),
          new TableLineage(e.warehouse(), e.to(), moved == null ? List.of() : moved.snapshots()));
      return null;
    }

    @Override
    public Void tableRestored(TableRestoredEvent e) {
      TableLineage restored =
          kept.remove(keptKey(e.warehouse(), e.tableUuid(), e.metadataLocation()));
      tables.put(
          Keys.table(e.warehouse(), e.to()),
          new TableLineage(
              e.warehouse(), e.to(), restored == null ? List.of() : restored.snapshots()));
      return null;
    }

    @Override
    public Void tableExpunged(TableExpungedEvent e) {
      kept.remove(keptKey(e.warehouse(), e.tableUuid(), e.metadataLocation()));
      return null;
    }

    @Override
    public Void tableFilesPurged(TableFilesPurgedEvent e) {
      return null;
    }

    @Override
    public Void tablePurgeRefused(TablePurgeRefusedEvent e) {
      return null;
    }

    @Override
    public Void tableMaintained(TableMaintainedEvent e) {
      maintenance.put(e.tableUuid(), new MaintenanceRun(e, appliedTime));
      return null;
    }

    @Override
    public Void viewCreated(ViewCreatedEvent e) {
      return null;
    }

    @Override
    public Void viewRegistered(ViewRegisteredEvent e) {
      return null;
    }

    @Override
    public Void viewReplaced(ViewReplacedEvent e) {
      return null;
    }

    @Override
    public Void viewDropped(ViewDroppedEvent e) {
      return null;
    }

    @Override
    public Void viewRenamed(ViewRenamedEvent e) {
      return null;
    }

    @Override
    public Void viewRestored(ViewRestoredEvent e) {
      return null;
    }

    @Override
    public Void viewExpunged(ViewExpungedEvent e) {
      return null;
    }

    @Override
    public Void accessChanged(AccessChangedEvent e) {
      return null;
    }
  }

  private static String keptKey(String warehouse, String uuid, String metadataLocation) {
    return warehouse + "\n" + uuid + "\n" + metadataLocation;
  }

  private static Map<String, String> sources(Snapshot snapshot) {
    Map<String, String> sources = new LinkedHashMap<>();
    if (snapshot.summary() != null) {
      snapshot
          .summary()
          .forEach(
              (k, v) -> {
                if (k.startsWith(PREFIX)) {
                  sources.put(k, v);
                }
              });
    }
    return sources;
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
