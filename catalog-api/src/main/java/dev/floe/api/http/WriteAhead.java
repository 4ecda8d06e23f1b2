package dev.floe.api.http;

import dev.floe.api.Uuid7;
import dev.floe.events.CommandReply;
import dev.floe.events.RecordLimits;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.StorageConfig;
import dev.floe.infra.storage.StorageProfile;
import dev.floe.processor.Decision;
import dev.floe.processor.TableDecider;
import io.vertx.core.Future;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a commit's metadata file before the command is sent, so that the partition's single writer
 * does not wait for storage: it takes the file if the table still points at the base the file was
 * decided on, and otherwise decides and writes as before (DESIGN §2, changed in
 * docs/architecture.md, <i>Writing ahead</i>). One slow write then holds up its own commit only,
 * not every later command of the partition.
 *
 * <p>Where: on the storages configured to ({@code floe.warehouse.<name>.write-ahead}, by default
 * object storage only; see {@link StorageProfile#writesAhead}).
 *
 * <p>The decision ahead is the processor's own decider, run on the table's state as this instance
 * reads it; it rejects nothing (a commit it would refuse is sent as it came, and the processor
 * decides it on the latest state). It is tried only when this instance holds the table's partition
 * and has no other commit of the table under way: a second commit in flight would be decided on a
 * base the first is about to replace, and write a file for nothing.
 *
 * <p>A file written ahead that the processor did not take (the reply names another file, or
 * rejects) is deleted; when the outcome is unknown it is left, as a client's files are.
 */
final class WriteAhead {
  private static final Logger LOG = LoggerFactory.getLogger(WriteAhead.class);

  private final CatalogContext catalog;
  private final StorageConfig storage;
  private final boolean anywhere;
  private final ConcurrentHashMap<String, Integer> inFlight = new ConcurrentHashMap<>();
  private final DecidedBases bases = new DecidedBases(32L * 1024 * 1024);

  WriteAhead(CatalogContext catalog) {
    this.catalog = catalog;
    this.storage = catalog.config().storage();
    this.anywhere = storage.all().stream().anyMatch(StorageProfile::writesAhead);
  }

  /** What the commit sends, and what it wrote ahead (null fields when nothing). */
  private record Ahead(CommitTableCommand command, TableMetadata metadata, long weight) {
    String location() {
      return command.writtenAhead() == null ? null : command.writtenAhead().location();
    }
  }

  /**
   * Commits, writing the metadata file ahead where it can; fails as {@link CatalogContext#submit}.
   */
  Future<CommandReply> commit(String warehouse, TableIdentifier table, CommitTableCommand command) {
    if (!anywhere || !writesAhead(warehouse, table)) {
      return catalog.submit(command);
    }
    String key = command.key();
    boolean alone = inFlight.merge(key, 1, Integer::sum) == 1;
    Future<CommandReply> reply =
        alone
            ? catalog
                .read(() -> prepare(key, warehouse, table, command))
                .compose(ahead -> send(key, ahead))
            : catalog.submit(command);
    return reply.andThen(done -> inFlight.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1));
  }

  /**
   * Whether the table's storage is written ahead (StorageProfile#writesAhead), found without
   * blocking: the table must be in a store of this instance, or the state to decide on is not here.
   */
  private boolean writesAhead(String warehouse, TableIdentifier table) {
    try {
      String location = catalog.queries().tableMetadataLocationNow(warehouse, table);
      return location != null
          && storage.forLocation(location).map(StorageProfile::writesAhead).orElse(false);
    } catch (RuntimeException e) {
      return false; // a store that moved or closed meanwhile: the processor decides as before
    }
  }

  /**
   * Decides the commit on the table's state as read here and writes its file; the command as it
   * came when the state is not at hand here, the decision changes nothing or is a rejection, or the
   * write fails (the processor then decides, and answers each of those).
   */
  private Ahead prepare(
      String key, String warehouse, TableIdentifier table, CommitTableCommand command) {
    Ahead asItCame = new Ahead(command, null, 0);
    try {
      TableState state = catalog.queries().tableNow(warehouse, table);
      if (state == null) {
        return asItCame;
      }
      TableMetadata base = bases.get(key, state.metadataLocation());
      if (base == null) {
        base = TableMetadataParser.fromJson(state.metadataLocation(), state.metadataJson());
      }
      Decision decision = TableDecider.commit(state, base, command, Uuid7.next().toString());
      TableState next = decision.tableState();
      if (decision.isRejected() || next == null) {
        return asItCame;
      }
      long weight = (long) next.metadataJson().length() + next.metadataLocation().length();
      if (weight > RecordLimits.MAX_TABLE_STATE_BYTES) {
        return asItCame; // the processor refuses it with its 413
      }
      catalog.metadataFiles().writeJson(next.metadataLocation(), next.metadataJson());
      return new Ahead(
          command.withWrittenAhead(
              new CommitTableCommand.WrittenAhead(
                  state.metadataLocation(), state.tableUuid(), next.metadataLocation())),
          decision.metadata(),
          weight);
    } catch (RuntimeException e) {
      LOG.debug("Not writing ahead for command {}: {}", command.header().commandId(), e.toString());
      return asItCame;
    }
  }

  private Future<CommandReply> send(String key, Ahead ahead) {
    if (ahead.location() == null) {
      return catalog.submit(ahead.command());
    }
    return catalog
        .send(ahead.command())
        .compose(
            reply -> {
              if (reply.accepted() && ahead.location().equals(reply.metadataLocation())) {
                bases.put(key, ahead.metadata(), ahead.weight());
              } else {
                // Certainly not taken: the reply names another file, or none.
                catalog.read(() -> deleteUnused(ahead.location()));
              }
              return CatalogContext.accepted(reply);
            });
  }

  private Void deleteUnused(String location) {
    try {
      catalog.metadataFiles().io(location).deleteFile(location);
    } catch (RuntimeException e) {
      LOG.warn("Could not delete the unused metadata file {}: {}", location, e.getMessage());
    }
    return null;
  }
}
