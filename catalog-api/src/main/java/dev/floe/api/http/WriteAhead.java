package dev.floe.api.http;

import dev.floe.client.Uuid7;
import dev.floe.events.CommandReply;
import dev.floe.events.RecordLimits;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.config.StorageConfig;
import dev.floe.infra.storage.config.StorageProfile;
import dev.floe.processor.Decision;
import dev.floe.processor.TableDecider;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a commit's metadata file before the command is sent, so that the partition's single writer
 * does not wait for storage: it takes the file if the table still points at the base the file was
 * decided on, and otherwise decides and writes as before (docs/architecture.md, <i>Writing
 * ahead</i>). One slow write then holds up its own commit only, not every later command of the
 * partition.
 *
 * <p>Where: on the storages configured to ({@code floe.warehouse.<name>.write-ahead}, by default
 * object storage only; see {@link StorageProfile#writesAhead}).
 *
 * <p>The decision ahead is the processor's own decider, run on the table's state as this instance
 * reads it, or, while a commit of the table is under way from this instance, on the state that
 * commit leaves if its file is taken ({@link Chain}). It rejects nothing: a commit it would refuse
 * is sent as it came, and the processor decides it on the latest state. It is tried only when this
 * instance holds the table's partition; a commit of a table another instance holds is sent to that
 * instance ({@link OwnerWritesAhead}), unless it cannot be reached.
 *
 * <p>A file written ahead that the processor did not take (the reply names another file, or
 * rejects) is deleted; when the outcome is unknown it is left, as a client's files are.
 */
final class WriteAhead {
  private static final Logger LOG = LoggerFactory.getLogger(WriteAhead.class);

  private final CatalogContext catalog;
  private final StorageConfig storage;
  private final boolean anywhere;
  private final DecidedBases bases = new DecidedBases(32L * 1024 * 1024);

  /** The commits of a table under way from this instance, by table key; none when none are. */
  private final Map<String, Chain> chains = new HashMap<>();

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
   * The table as a commit under way leaves it if the processor takes its file: the next commit of
   * the table is decided on it. {@link #NONE} when that commit was not written ahead (then the
   * state it leaves is not known here), {@link #STORE} when no commit is under way.
   */
  private record Tip(TableState state, TableMetadata metadata) {
    static final Tip NONE = new Tip(null, null);
    static final Tip STORE = new Tip(null, null);
  }

  /**
   * A table's commits under way from this instance, decided one after the other, each on the tip
   * the one before left, and sent in that order: the processor, which decides a partition's
   * commands in the order they were sent, then finds each at the base it was decided on. The files
   * are written at the same time, so a hot table's commits do not wait for one write after another.
   * Guarded by the enclosing {@link WriteAhead}.
   */
  private static final class Chain {
    int commits;
    Future<Tip> decided = Future.succeededFuture(Tip.STORE);
    Future<Void> sent = Future.succeededFuture();
  }

  /**
   * Commits, writing the metadata file ahead where it can; fails as {@link CatalogContext#submit}.
   */
  Future<CommandReply> commit(
      RequestContext request, String warehouse, TableIdentifier table, CommitTableCommand command) {
    TableState stored = anywhere ? storedIfWrittenAhead(warehouse, table) : null;
    if (stored == null) {
      Optional<OwnerWritesAhead> owner = ownerWritesAhead(request, warehouse, table);
      return owner.isPresent() ? Future.failedFuture(owner.get()) : catalog.submit(command);
    }
    String key = command.key();
    Promise<Tip> decided = Promise.promise();
    Promise<Void> sent = Promise.promise();
    Future<Tip> before;
    Future<Void> sentBefore;
    synchronized (this) {
      Chain chain = chains.computeIfAbsent(key, k -> new Chain());
      chain.commits++;
      before = chain.decided;
      sentBefore = chain.sent;
      chain.decided = decided.future();
      chain.sent = sent.future();
    }
    Future<CommandReply> reply =
        before
            .compose(tip -> catalog.read(() -> prepare(key, stored, command, tip, decided)))
            .andThen(prepared -> decided.tryComplete(Tip.NONE)) // never leave the next waiting
            .compose(ahead -> sentBefore.transform(previous -> send(key, ahead, sent)));
    return reply.andThen(
        done -> {
          sent.tryComplete();
          synchronized (this) {
            if (--chains.get(key).commits == 0) {
              chains.remove(key);
            }
          }
        });
  }

  /**
   * The table's state in a store of this instance, from one read that does not block, when its
   * storage is written ahead (StorageProfile#writesAhead); null when it is not, or the state to
   * decide on is not here. A commit that starts a chain is decided on it: it is read when the
   * commit arrives, and with no commit of the table under way here nothing comes between.
   */
  private TableState storedIfWrittenAhead(String warehouse, TableIdentifier table) {
    try {
      TableState state = catalog.queries().tableNow(warehouse, table);
      return state != null
              && storage
                  .forLocation(state.metadataLocation())
                  .map(StorageProfile::writesAhead)
                  .orElse(false)
          ? state
          : null;
    } catch (RuntimeException e) {
      return null; // a store that moved or closed meanwhile: the processor decides as before
    }
  }

  /**
   * The instance to send the commit to, when another instance hosts the table and the warehouse is
   * written ahead (StorageProfile#writesAhead): that instance holds the table's state, so it can
   * write the file ahead, where this one could only leave it to the processor. Never for a request
   * that must be answered here (it came from another instance, or the owner could not be reached).
   * A table bound to a storage profile that is written ahead, in a warehouse that is not, is not
   * sent on.
   */
  private Optional<OwnerWritesAhead> ownerWritesAhead(
      RequestContext request, String warehouse, TableIdentifier table) {
    StorageProfile profile = storage.warehouse(warehouse);
    if (!anywhere || request.answerHere() || profile == null || !profile.writesAhead()) {
      return Optional.empty();
    }
    try {
      return catalog.queries().hostedElsewhere(warehouse, table).map(OwnerWritesAhead::new);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Decides the commit on the tip the commit before it left (or the table's state in the store
   * here, when none is under way), completes {@code decided} with the tip this one leaves, and then
   * writes the file. The command as it came when there is no state to decide on here (the commit
   * before was not written ahead, or the table is not in a store here), the decision changes
   * nothing or is a rejection, or the write fails: the processor then decides, and answers each of
   * those. A commit decided on a tip whose file is not taken is decided again by the processor.
   */
  private Ahead prepare(
      String key, TableState stored, CommitTableCommand command, Tip tip, Promise<Tip> decided) {
    Ahead asItCame = new Ahead(command, null, 0);
    try {
      TableState state = tip == Tip.STORE ? stored : tip.state();
      if (state == null) {
        return asItCame;
      }
      TableMetadata base =
          tip == Tip.STORE ? bases.get(key, state.metadataLocation()) : tip.metadata();
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
      decided.complete(new Tip(next, decision.metadata()));
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

  /** Sends the command (then {@code sent} completes: the next may follow) and settles its file. */
  private Future<CommandReply> send(String key, Ahead ahead, Promise<Void> sent) {
    Future<CommandReply> answer = catalog.send(ahead.command());
    sent.tryComplete();
    if (ahead.location() == null) {
      return answer.compose(CatalogContext::accepted);
    }
    return answer.compose(
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
      catalog.metadataFiles().delete(location);
    } catch (RuntimeException e) {
      LOG.warn("Could not delete the unused metadata file {}: {}", location, e.getMessage());
    }
    return null;
  }
}
