package dev.floe.server.it.support;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.iceberg.BaseTransaction;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableCommit;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One writer of the fault harness that changes the catalog itself, not only table contents: in turn
 * it creates a table ({@code m<id>_<n>}), renames one of the tables it created ({@code
 * m<id>_<n>_r<k>}), and commits a multi-table transaction ({@code POST
 * /v1/{prefix}/transactions/commit}) that fast-appends to both of its two transaction tables
 * ({@code m<id>_ta}, {@code m<id>_tb}), each snapshot tagged {@link #TAG} with the attempt's id. It
 * works through one instance at a time and fails over to the next on an unknown outcome or a failed
 * load, as {@link HarnessWriter} does, and records every attempt's outcome for {@link #check}.
 *
 * <p>Only this writer touches its tables, so after an unknown create it retries the same name (a
 * 409 then means the unknown attempt applied), and after any rename that was not acknowledged it
 * never renames that table again (it no longer knows its name): each table has at most one
 * uncertain step, the last. The namespace must hold no tables of an earlier run of writers with the
 * same ids.
 */
public final class MixedOps implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(MixedOps.class);

  /** The snapshot summary property that names the transaction attempt that added a snapshot. */
  public static final String TAG = "floe.mixed.tx";

  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Map<String, String> PROPERTIES = Map.of("format-version", "2");
  private static final Pattern WRITERS_NAME = Pattern.compile("m\\d+_.*");

  public enum Kind {
    CREATE,
    RENAME,
    TRANSACTION
  }

  public enum Outcome {
    /** The call had not returned when the writer ended (it died): treated as unknown. */
    PENDING,
    /** The call returned: the change is applied. */
    ACKNOWLEDGED,
    /** A 5xx or a failed connection: the change may or may not be applied. */
    UNKNOWN,
    /**
     * An expected 409: a transaction's CommitFailedException (not applied), or a retried create's
     * AlreadyExistsException (this attempt did nothing, but an earlier unknown attempt of the same
     * name applied: the table exists).
     */
    REJECTED,
    /** Any other 4xx: not applied, and not expected. */
    REFUSED
  }

  /**
   * One call of one writer: a CREATE of {@code table}; a RENAME of {@code table} to {@code target};
   * a TRANSACTION appending to {@code table} and {@code target}, tagged {@code id}.
   */
  public record Attempt(
      int writer,
      Kind kind,
      String id,
      String table,
      String target,
      int instance,
      Outcome outcome,
      String error) {}

  /**
   * What {@link #check} found, over the attempts of all writers. {@code creates}, {@code renames}
   * and {@code transactions} count attempts of each kind; {@code acknowledged}, {@code unknown}
   * (pending included) and {@code refused} count attempts by outcome. {@code lost}: an acknowledged
   * change that is not there (a confirmed table under none of the names it may have, or an
   * acknowledged transaction not on both tables). {@code duplicates}: a table under two of its
   * names at once, or a transaction's tag twice in one table. {@code torn}: a transaction on one of
   * its two tables only. {@code problems} describes each of these and every other violation (a
   * refused or rejected change that is there, a table or tag no attempt explains).
   */
  public record Report(
      long creates,
      long renames,
      long transactions,
      long acknowledged,
      long unknown,
      long lost,
      long duplicates,
      long torn,
      long refused,
      List<String> problems) {}

  /**
   * A table this writer created and knows the name of: {@code base}, renamed {@code renames} times.
   */
  private record Owned(String base, int renames) {
    String name() {
      return renames == 0 ? base : base + "_r" + renames;
    }
  }

  private final int id;
  private final List<String> uris;
  private final Namespace namespace;
  private final AtomicBoolean stop;
  private final Random random;
  private final InstanceClients clients;
  private final TableIdentifier[] transactionTables;
  private final List<Owned> owned = new ArrayList<>();
  private final Queue<Attempt> attempts = new ConcurrentLinkedQueue<>();
  private long created;
  private long transactionCount;
  private String unresolvedCreate;
  private volatile long operations;
  private volatile Throwable died;

  private final ReadYourWrites readYourWrites;

  public MixedOps(int id, List<String> uris, Namespace namespace, AtomicBoolean stop, long seed) {
    this(id, uris, namespace, stop, seed, null);
  }

  /**
   * @param readYourWrites loads both tables of every acknowledged transaction from every instance,
   *     or null
   */
  public MixedOps(
      int id,
      List<String> uris,
      Namespace namespace,
      AtomicBoolean stop,
      long seed,
      ReadYourWrites readYourWrites) {
    this.readYourWrites = readYourWrites;
    this.id = id;
    this.uris = uris;
    this.namespace = namespace;
    this.stop = stop;
    this.random = new Random(seed);
    this.clients = new InstanceClients(uris, id, (path, added, message) -> {});
    this.transactionTables =
        new TableIdentifier[] {
          TableIdentifier.of(namespace, "m" + id + "_ta"),
          TableIdentifier.of(namespace, "m" + id + "_tb")
        };
  }

  public int failovers() {
    return clients.failovers();
  }

  /** What ended this writer other than being asked to stop, or null. */
  public Throwable died() {
    return died;
  }

  /** Creates, renames and transactions attempted (not the loads and set-up around them). */
  public long operations() {
    return operations;
  }

  /** Every attempt so far, with its outcome. */
  public List<Attempt> attempts() {
    return List.copyOf(attempts);
  }

  @Override
  public void run() {
    try {
      if (!createTransactionTables()) {
        return;
      }
      for (long step = 0; !stop.get(); step++) {
        switch ((int) (step % 3)) {
          case 0 -> create();
          case 1 -> {
            if (owned.isEmpty()) {
              create();
            } else {
              rename();
            }
          }
          default -> transaction();
        }
      }
    } catch (Throwable e) {
      died = e;
      LOG.error("Mixed writer {} died", id, e);
    } finally {
      clients.close();
    }
  }

  /** Creates the two transaction tables, retrying until done; false if asked to stop first. */
  private boolean createTransactionTables() {
    for (TableIdentifier table : transactionTables) {
      while (true) {
        if (stop.get()) {
          return false;
        }
        try {
          catalog().createTable(table, SCHEMA, PartitionSpec.unpartitioned(), PROPERTIES);
          break;
        } catch (AlreadyExistsException e) {
          break; // an earlier attempt whose answer was lost applied
        } catch (RuntimeException e) {
          if (!HarnessWriter.outcomeUnknown(e)) {
            throw e;
          }
          failover(e);
        }
      }
    }
    return true;
  }

  /** A new table, or the last create again if its outcome is unknown. */
  private void create() {
    RESTCatalog catalog;
    try {
      catalog = catalog();
    } catch (RuntimeException e) {
      failover(e);
      return;
    }
    boolean retry = unresolvedCreate != null;
    String name = retry ? unresolvedCreate : "m" + id + "_" + ++created;
    unresolvedCreate = null;
    int at = clients.instance();
    Outcome outcome = Outcome.PENDING;
    String error = null;
    operations++;
    try {
      catalog.createTable(
          TableIdentifier.of(namespace, name), SCHEMA, PartitionSpec.unpartitioned(), PROPERTIES);
      outcome = Outcome.ACKNOWLEDGED;
      owned.add(new Owned(name, 0));
    } catch (AlreadyExistsException e) {
      error = e.getMessage();
      if (retry) {
        // Only this writer creates this name: an earlier attempt whose outcome was unknown applied.
        outcome = Outcome.REJECTED;
        owned.add(new Owned(name, 0));
      } else {
        outcome = Outcome.REFUSED;
      }
    } catch (RuntimeException e) {
      error = e.toString();
      if (HarnessWriter.outcomeUnknown(e)) {
        outcome = Outcome.UNKNOWN;
        unresolvedCreate = name;
        failover(e);
      } else {
        outcome = Outcome.REFUSED;
      }
    } finally {
      attempts.add(new Attempt(id, Kind.CREATE, name, name, null, at, outcome, error));
    }
  }

  /** Renames a random table this writer knows the name of; unless acknowledged, it is retired. */
  private void rename() {
    RESTCatalog catalog;
    try {
      catalog = catalog();
    } catch (RuntimeException e) {
      failover(e);
      return;
    }
    int pick = random.nextInt(owned.size());
    Owned from = owned.get(pick);
    Owned to = new Owned(from.base(), from.renames() + 1);
    int at = clients.instance();
    Outcome outcome = Outcome.PENDING;
    String error = null;
    operations++;
    try {
      catalog.renameTable(
          TableIdentifier.of(namespace, from.name()), TableIdentifier.of(namespace, to.name()));
      outcome = Outcome.ACKNOWLEDGED;
      owned.set(pick, to);
    } catch (RuntimeException e) {
      error = e.toString();
      owned.remove(pick);
      if (HarnessWriter.outcomeUnknown(e)) {
        outcome = Outcome.UNKNOWN;
        failover(e);
      } else {
        // No 4xx is expected: the source exists and the target name is new.
        outcome = Outcome.REFUSED;
      }
    } finally {
      attempts.add(
          new Attempt(
              id,
              Kind.RENAME,
              from.name() + "->" + to.name(),
              from.name(),
              to.name(),
              at,
              outcome,
              error));
    }
  }

  /** One fast append to each transaction table, committed together, on freshly loaded state. */
  private void transaction() {
    RESTCatalog catalog;
    Table first;
    Table second;
    try {
      catalog = catalog();
      first = catalog.loadTable(transactionTables[0]);
      second = catalog.loadTable(transactionTables[1]);
    } catch (RuntimeException e) {
      failover(e);
      return;
    }
    String tag = "m" + id + "-tx" + ++transactionCount;
    int at = clients.instance();
    Outcome outcome = Outcome.PENDING;
    String error = null;
    operations++;
    try {
      TableCommit firstCommit = append(transactionTables[0], first, tag);
      TableCommit secondCommit = append(transactionTables[1], second, tag);
      catalog.commitTransaction(List.of(firstCommit, secondCommit));
      outcome = Outcome.ACKNOWLEDGED;
      if (readYourWrites != null) {
        for (TableCommit commit : List.of(firstCommit, secondCommit)) {
          for (MetadataUpdate update : commit.updates()) {
            if (update instanceof MetadataUpdate.AddSnapshot added) {
              readYourWrites.check(commit.identifier(), added.snapshot().snapshotId());
            }
          }
        }
      }
    } catch (CommitFailedException e) {
      // A table moved since the load: this writer's own earlier unknown transaction landed.
      outcome = Outcome.REJECTED;
      error = e.getMessage();
    } catch (RuntimeException e) {
      error = e.toString();
      if (HarnessWriter.outcomeUnknown(e)) {
        outcome = Outcome.UNKNOWN;
        failover(e);
      } else {
        outcome = Outcome.REFUSED;
      }
    } finally {
      attempts.add(
          new Attempt(
              id,
              Kind.TRANSACTION,
              tag,
              transactionTables[0].name(),
              transactionTables[1].name(),
              at,
              outcome,
              error));
    }
  }

  /** A tagged fast append to {@code table}, staged (not sent), as one table's part of a commit. */
  private static TableCommit append(TableIdentifier identifier, Table table, String tag) {
    Transaction transaction = table.newTransaction();
    transaction.newFastAppend().appendFile(DataFileEntries.of(table, "x")).set(TAG, tag).commit();
    BaseTransaction staged = (BaseTransaction) transaction;
    return TableCommit.create(identifier, staged.startMetadata(), staged.currentMetadata());
  }

  private RESTCatalog catalog() {
    clients.reroute();
    return clients.catalog();
  }

  private void failover(RuntimeException cause) {
    if (!clients.failover("Mixed writer " + id, cause)) {
      stop.set(true);
    }
  }

  /**
   * Loads what is there at the end through {@code catalog} and checks every recorded outcome of
   * {@code writers} (all of them stopped).
   *
   * <p>Per created table, following its renames from the name it was created under:
   *
   * <ul>
   *   <li>confirmed (a create acknowledged, or a retried create answered 409 after an unknown
   *       attempt) and not renamed since: present under that name, else lost;
   *   <li>each acknowledged rename: the new name present (else lost) and the old one absent (else a
   *       duplicate);
   *   <li>its last rename unknown: exactly one of the old and the new name present (both: a
   *       duplicate; neither: lost);
   *   <li>its last rename refused: the old name present (else lost), the new one absent;
   *   <li>no create attempt confirmed, one unknown: present or absent, both legal (never renamed);
   *   <li>every create attempt refused: absent.
   * </ul>
   *
   * An unknown create may also land late, after a later attempt created the table and it was
   * renamed: the created name present again as another table (another uuid) is legal.
   *
   * <p>Per transaction attempt, its tag on both tables or on neither (else torn), never twice in a
   * table (else a duplicate); acknowledged: on both (else lost); rejected or refused: on neither;
   * unknown: either. A table named like a writer's ({@code m<n>_…}) or a tag that no attempt
   * explains is a problem.
   */
  public static Report check(RESTCatalog catalog, List<MixedOps> writers) {
    Checker checker = new Checker(catalog);
    Set<Namespace> namespaces = new HashSet<>();
    List<Attempt> all = new ArrayList<>();
    for (MixedOps writer : writers) {
      namespaces.add(writer.namespace);
      all.addAll(writer.attempts());
    }
    Map<Namespace, Set<String>> present = new HashMap<>();
    for (Namespace namespace : namespaces) {
      Set<String> names = new HashSet<>();
      catalog.listTables(namespace).forEach(table -> names.add(table.name()));
      present.put(namespace, names);
    }
    for (MixedOps writer : writers) {
      checker.checkTables(writer, present.get(writer.namespace));
      checker.checkTransactions(writer);
    }
    for (Namespace namespace : namespaces) {
      for (String name : present.get(namespace)) {
        if (WRITERS_NAME.matcher(name).matches() && !checker.explained.contains(name)) {
          checker.problems.add(namespace + "." + name + ": present, but no attempt names it");
        }
      }
    }
    return new Report(
        count(all, a -> a.kind() == Kind.CREATE),
        count(all, a -> a.kind() == Kind.RENAME),
        count(all, a -> a.kind() == Kind.TRANSACTION),
        count(all, a -> a.outcome() == Outcome.ACKNOWLEDGED),
        count(all, a -> unknown(a.outcome())),
        checker.lost,
        checker.duplicates,
        checker.torn,
        count(all, a -> a.outcome() == Outcome.REFUSED),
        List.copyOf(checker.problems));
  }

  private static long count(List<Attempt> attempts, Predicate<Attempt> which) {
    return attempts.stream().filter(which).count();
  }

  private static boolean unknown(Outcome outcome) {
    return outcome == Outcome.UNKNOWN || outcome == Outcome.PENDING;
  }

  /** The judgement of {@link #check}, one writer at a time. */
  private static final class Checker {
    final RESTCatalog catalog;
    final List<String> problems = new ArrayList<>();
    final Set<String> explained = new HashSet<>();
    long lost;
    long duplicates;
    long torn;

    Checker(RESTCatalog catalog) {
      this.catalog = catalog;
    }

    void checkTables(MixedOps writer, Set<String> present) {
      Map<String, List<Attempt>> creates = new LinkedHashMap<>();
      Map<String, Attempt> renameFrom = new HashMap<>();
      for (Attempt attempt : writer.attempts()) {
        switch (attempt.kind()) {
          case CREATE ->
              creates.computeIfAbsent(attempt.table(), n -> new ArrayList<>()).add(attempt);
          case RENAME -> {
            explained.add(attempt.target());
            if (renameFrom.put(attempt.table(), attempt) != null) {
              problems.add(attempt.table() + ": renamed twice by writer " + writer.id);
            }
          }
          case TRANSACTION -> {}
        }
      }
      explained.add(writer.transactionTables[0].name());
      explained.add(writer.transactionTables[1].name());
      creates.forEach(
          (base, ofName) -> {
            explained.add(base);
            checkTable(writer.namespace, base, ofName, renameFrom, present);
          });
    }

    private void checkTable(
        Namespace namespace,
        String base,
        List<Attempt> createAttempts,
        Map<String, Attempt> renameFrom,
        Set<String> present) {
      boolean confirmed =
          createAttempts.stream()
              .anyMatch(
                  a -> a.outcome() == Outcome.ACKNOWLEDGED || a.outcome() == Outcome.REJECTED);
      boolean createUnknown = createAttempts.stream().anyMatch(a -> unknown(a.outcome()));
      if (!confirmed) {
        if (renameFrom.containsKey(base)) {
          problems.add(base + ": renamed although its create was never confirmed");
        }
        if (!createUnknown && present.contains(base)) {
          problems.add(
              base
                  + ": present although every create was refused: "
                  + createAttempts.stream().map(Attempt::error).toList());
        }
        return;
      }
      // Follow the acknowledged renames; the first other one is the last step of the history.
      List<String> former = new ArrayList<>();
      String name = base;
      Attempt last = renameFrom.get(name);
      while (last != null && last.outcome() == Outcome.ACKNOWLEDGED) {
        former.add(name);
        name = last.target();
        last = renameFrom.get(name);
      }
      boolean here = present.contains(name);
      boolean there = last != null && present.contains(last.target());
      String table = here ? name : there ? last.target() : null;
      for (String old : former) {
        if (present.contains(old)
            && !(old.equals(base) && createUnknown && another(namespace, base, table))) {
          duplicates++;
          problems.add(old + ": present, although renamed (acknowledged); now " + name);
        }
      }
      if (last == null) {
        if (!here) {
          lost++;
          problems.add(name + ": confirmed (created as " + base + ") but missing");
        }
        return;
      }
      if (unknown(last.outcome())) {
        if (here
            && there
            && !(name.equals(base) && createUnknown && another(namespace, base, last.target()))) {
          duplicates++;
          problems.add(name + ": present under both names after an unknown rename");
        } else if (!here && !there) {
          lost++;
          problems.add(name + ": present under neither name after an unknown rename");
        }
        return;
      }
      if (!here) {
        lost++;
        problems.add(name + ": missing after a refused rename: " + last.error());
      }
      if (there) {
        problems.add(last.target() + ": present although its rename was refused: " + last.error());
      }
    }

    /**
     * Whether {@code name} holds another table than {@code other} (another uuid): a late landing of
     * an unknown create. True when {@code other} is null (that table is missing, counted lost).
     */
    private boolean another(Namespace namespace, String name, String other) {
      if (other == null) {
        return true;
      }
      TableMetadata first = metadata(TableIdentifier.of(namespace, name));
      TableMetadata second = metadata(TableIdentifier.of(namespace, other));
      return first == null || second == null || !first.uuid().equals(second.uuid());
    }

    void checkTransactions(MixedOps writer) {
      List<Attempt> transactions =
          writer.attempts().stream().filter(a -> a.kind() == Kind.TRANSACTION).toList();
      if (transactions.isEmpty()) {
        return;
      }
      List<Map<String, Integer>> tags = consistentTags(writer.transactionTables);
      Set<String> attempted = new HashSet<>();
      for (Attempt attempt : transactions) {
        attempted.add(attempt.id());
        int first = tags.get(0).getOrDefault(attempt.id(), 0);
        int second = tags.get(1).getOrDefault(attempt.id(), 0);
        String which = attempt.id() + " (" + attempt.outcome() + ")";
        if (first > 1 || second > 1) {
          duplicates++;
          problems.add(which + ": applied " + first + " and " + second + " times");
        }
        if ((first > 0) != (second > 0)) {
          torn++;
          problems.add(which + ": torn, on " + (first > 0 ? attempt.table() : attempt.target()));
        }
        switch (attempt.outcome()) {
          case ACKNOWLEDGED -> {
            if (first == 0 || second == 0) {
              lost++;
              problems.add(which + ": not on both tables");
            }
          }
          case REJECTED, REFUSED -> {
            if (first > 0 || second > 0) {
              problems.add(which + ": present although answered " + attempt.error());
            }
          }
          case UNKNOWN, PENDING -> {}
        }
      }
      for (int i = 0; i < 2; i++) {
        for (String tag : tags.get(i).keySet()) {
          if (!attempted.contains(tag)) {
            problems.add(writer.transactionTables[i] + ": tag " + tag + " was never attempted");
          }
        }
      }
    }

    /**
     * The tags on both tables as they were at one moment: the first table is loaded again after the
     * second and must not have changed meanwhile (a late unknown transaction landing between the
     * two loads would look torn).
     */
    private List<Map<String, Integer>> consistentTags(TableIdentifier[] tables) {
      TableMetadata first = null;
      TableMetadata second = null;
      for (int round = 0; round < 10; round++) {
        first = metadata(tables[0]);
        second = metadata(tables[1]);
        TableMetadata again = metadata(tables[0]);
        if (first == null
            ? again == null
            : again != null && first.metadataFileLocation().equals(again.metadataFileLocation())) {
          for (int i = 0; i < 2; i++) {
            if ((i == 0 ? first : second) == null) {
              problems.add(tables[i] + ": transaction table missing");
            }
          }
          return List.of(tags(first), tags(second));
        }
      }
      problems.add(tables[0] + ": kept changing while checked");
      return List.of(tags(first), tags(second));
    }

    private TableMetadata metadata(TableIdentifier table) {
      try {
        return ((HasTableOperations) catalog.loadTable(table)).operations().current();
      } catch (NoSuchTableException e) {
        return null;
      }
    }

    private static Map<String, Integer> tags(TableMetadata metadata) {
      Map<String, Integer> counts = new HashMap<>();
      if (metadata != null) {
        for (Snapshot snapshot : metadata.snapshots()) {
          String tag = snapshot.summary().get(TAG);
          if (tag != null) {
            counts.merge(tag, 1, Integer::sum);
          }
        }
      }
      return counts;
    }
  }
}
