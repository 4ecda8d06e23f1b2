package dev.floe.server.it.support;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Walks the final metadata of each table and compares it with what the writers were told.
 *
 * <ul>
 *   <li>the snapshots form one linear chain from the current snapshot back to the root, with
 *       sequence numbers 1..n, each parent's one less than its child's, and the table's last
 *       sequence number n;
 *   <li>every snapshot carries the tag of an attempt made on that table, and no tag appears twice
 *       (a duplicate: one commit applied twice);
 *   <li>every acknowledged attempt's snapshot is present, with the id the client was given (else
 *       lost); no rejected attempt's snapshot is present;
 *   <li>no 409 was answered to a request whose own snapshot was already committed (a false
 *       conflict: the client would retry, or clean up files the table references).
 * </ul>
 *
 * Unknown outcomes may be present or absent; both are counted.
 */
public final class LineageChecker {
  /** What the check found; {@code problems} describes each violation. */
  public record Report(
      int tables,
      int snapshots,
      int acknowledged,
      int lost,
      int duplicates,
      int phantoms,
      int chainBreaks,
      int sequenceGaps,
      int rejectedButPresent,
      int ownConflicts,
      int conflictsWithOwnUnknown,
      int unknownPresent,
      int unknownAbsent,
      List<String> problems) {}

  private final CommitLog log;
  private final List<String> problems = new ArrayList<>();
  private int snapshots;
  private int acknowledged;
  private int lost;
  private int duplicates;
  private int phantoms;
  private int chainBreaks;
  private int sequenceGaps;
  private int rejectedButPresent;
  private int ownConflicts;
  private int conflictsWithOwnUnknown;
  private int unknownPresent;
  private int unknownAbsent;

  private LineageChecker(CommitLog log) {
    this.log = log;
  }

  public static Report check(RESTCatalog catalog, List<TableIdentifier> tables, CommitLog log) {
    LineageChecker checker = new LineageChecker(log);
    Map<String, TableMetadata> finals = new HashMap<>();
    for (TableIdentifier table : tables) {
      TableMetadata metadata =
          ((HasTableOperations) catalog.loadTable(table)).operations().current();
      finals.put(table.toString(), metadata);
      checker.checkTable(table.toString(), metadata);
    }
    checker.checkConflicts(finals);
    return new Report(
        tables.size(),
        checker.snapshots,
        checker.acknowledged,
        checker.lost,
        checker.duplicates,
        checker.phantoms,
        checker.chainBreaks,
        checker.sequenceGaps,
        checker.rejectedButPresent,
        checker.ownConflicts,
        checker.conflictsWithOwnUnknown,
        checker.unknownPresent,
        checker.unknownAbsent,
        List.copyOf(checker.problems));
  }

  private void checkTable(String table, TableMetadata metadata) {
    snapshots += metadata.snapshots().size();
    checkChain(table, metadata);
    Map<String, List<Snapshot>> byTag = new HashMap<>();
    for (Snapshot snapshot : metadata.snapshots()) {
      String tag = snapshot.summary().get(CommitLog.TAG);
      CommitLog.Attempt attempt = attemptOf(snapshot);
      if (attempt == null || !attempt.table.equals(table)) {
        phantoms++;
        problems.add(
            table
                + ": snapshot "
                + snapshot.snapshotId()
                + " tagged "
                + tag
                + " was never attempted on this table");
        continue;
      }
      byTag.computeIfAbsent(tag, t -> new ArrayList<>()).add(snapshot);
    }
    byTag.forEach(
        (tag, found) -> {
          if (found.size() > 1) {
            duplicates += found.size() - 1;
            problems.add(
                table
                    + ": attempt "
                    + tag
                    + " applied "
                    + found.size()
                    + " times: "
                    + found.stream().map(Snapshot::snapshotId).toList());
          }
        });
    for (CommitLog.Attempt attempt : log.attemptsOn(table)) {
      List<Snapshot> found = byTag.getOrDefault(attempt.tag, List.of());
      switch (attempt.outcome) {
        case ACKNOWLEDGED -> {
          acknowledged++;
          if (found.isEmpty()) {
            lost++;
            problems.add(
                table
                    + ": acknowledged attempt "
                    + attempt.tag
                    + " (snapshot "
                    + attempt.snapshotId
                    + ") is missing");
          } else if (attempt.snapshotId != null
              && found.stream().noneMatch(s -> s.snapshotId() == attempt.snapshotId)) {
            lost++;
            problems.add(
                table
                    + ": acknowledged snapshot "
                    + attempt.snapshotId
                    + " of "
                    + attempt.tag
                    + " is missing; the attempt is present as another snapshot");
          }
        }
        case REJECTED -> {
          if (!found.isEmpty()) {
            rejectedButPresent++;
            problems.add(
                table
                    + ": attempt "
                    + attempt.tag
                    + " was answered 409 ("
                    + attempt.error
                    + ") yet is committed");
          }
        }
        case UNKNOWN, PENDING -> {
          if (found.isEmpty()) {
            unknownAbsent++;
          } else {
            unknownPresent++;
          }
        }
      }
    }
  }

  /** One linear chain from the current snapshot to the root, sequence numbers 1..n. */
  private void checkChain(String table, TableMetadata metadata) {
    Map<Long, Snapshot> byId = new HashMap<>();
    metadata.snapshots().forEach(s -> byId.put(s.snapshotId(), s));
    List<Snapshot> chain = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    Snapshot at = metadata.currentSnapshot();
    while (at != null && seen.add(at.snapshotId())) {
      chain.add(0, at);
      if (at.parentId() != null && !byId.containsKey(at.parentId())) {
        chainBreaks++;
        problems.add(
            table
                + ": parent "
                + at.parentId()
                + " of "
                + at.snapshotId()
                + " is not in the metadata");
      }
      at = at.parentId() == null ? null : byId.get(at.parentId());
    }
    SnapshotRef main = metadata.ref(SnapshotRef.MAIN_BRANCH);
    if (main == null
        || metadata.currentSnapshot() == null
        || main.snapshotId() != metadata.currentSnapshot().snapshotId()) {
      chainBreaks++;
      problems.add(table + ": main does not point at the current snapshot");
    }
    if (chain.size() != metadata.snapshots().size()) {
      chainBreaks += metadata.snapshots().size() - chain.size();
      problems.add(
          table
              + ": "
              + (metadata.snapshots().size() - chain.size())
              + " snapshots are not on the chain from the current snapshot");
    }
    for (int i = 0; i < chain.size(); i++) {
      if (chain.get(i).sequenceNumber() != i + 1) {
        sequenceGaps++;
        problems.add(
            table
                + ": snapshot "
                + chain.get(i).snapshotId()
                + " at position "
                + (i + 1)
                + " has sequence number "
                + chain.get(i).sequenceNumber());
      }
    }
    if (metadata.lastSequenceNumber() != chain.size()) {
      sequenceGaps++;
      problems.add(
          table
              + ": last sequence number "
              + metadata.lastSequenceNumber()
              + " but "
              + chain.size()
              + " snapshots on the chain");
    }
  }

  /**
   * A 409 whose request's own snapshot was already committed when it was decided is a false
   * conflict: the branch had moved to that snapshot or past it (sequence number of the request's
   * snapshot at most that of the snapshot named in the message).
   */
  private void checkConflicts(Map<String, TableMetadata> finals) {
    for (CommitLog.Conflict conflict : log.conflicts()) {
      TableMetadata metadata = finals.get(conflict.attempt().table);
      if (metadata == null || conflict.addedSnapshotId() == null) {
        continue;
      }
      Snapshot own = metadata.snapshot(conflict.addedSnapshotId());
      Snapshot moved =
          conflict.conflictingSnapshotId() == null
              ? null
              : metadata.snapshot(conflict.conflictingSnapshotId());
      if (own != null && (moved == null || own.sequenceNumber() <= moved.sequenceNumber())) {
        ownConflicts++;
        problems.add(
            conflict.attempt().table
                + ": attempt "
                + conflict.attempt().tag
                + " got a 409 although its snapshot "
                + own.snapshotId()
                + " was already committed: "
                + conflict.message());
      } else if (moved != null) {
        CommitLog.Attempt mover = attemptOf(moved);
        if (mover != null
            && mover.writer == conflict.attempt().writer
            && mover.outcome == CommitLog.Outcome.UNKNOWN) {
          conflictsWithOwnUnknown++;
        }
      }
    }
    for (CommitLog.Attempt attempt : log.attempts()) {
      if (attempt.outcome != CommitLog.Outcome.REJECTED) {
        continue;
      }
      Long movedTo = CommitLog.conflictingSnapshot(attempt.error);
      TableMetadata metadata = finals.get(attempt.table);
      Snapshot moved = movedTo == null || metadata == null ? null : metadata.snapshot(movedTo);
      CommitLog.Attempt mover = moved == null ? null : attemptOf(moved);
      if (mover != null && mover.writer == attempt.writer) {
        ownConflicts++;
        problems.add(
            attempt.table
                + ": commit "
                + attempt.tag
                + " failed with a 409 against "
                + "the same writer's commit "
                + mover.tag
                + " ("
                + mover.outcome
                + ")");
      }
    }
  }

  private CommitLog.Attempt attemptOf(Snapshot snapshot) {
    String tag = snapshot.summary() == null ? null : snapshot.summary().get(CommitLog.TAG);
    return tag == null ? null : log.attempt(tag);
  }
}
