package dev.floe.server.it.support;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the fault harness's writers attempted and what they were told: one {@link Attempt} per
 * {@code commit()} call, tagged in its snapshot summary so the lineage checker can find it, and
 * every 409 the Iceberg client received on the way (it retries them internally).
 */
public final class CommitLog {
  /** The snapshot summary property that names the attempt that added a snapshot. */
  public static final String TAG = "floe.harness.attempt";

  private static final Pattern CONFLICTING_SNAPSHOT =
      Pattern.compile("expected id (?:-?\\d+|null) != (-?\\d+)");

  public enum Outcome {
    /** commit() has not returned (still running when the writers were stopped). */
    PENDING,
    /** commit() returned: the client was told its snapshot is committed. */
    ACKNOWLEDGED,
    /** commit() threw something other than a 409: the snapshot may or may not be committed. */
    UNKNOWN,
    /** commit() threw CommitFailedException (a 409 after all client retries): not committed. */
    REJECTED,
    /** commit() threw anything else, e.g. another 4xx: not committed, and not expected at all. */
    REFUSED
  }

  /** One commit() call of one writer. */
  public static final class Attempt {
    final String tag;
    final int writer;
    final String table;
    final int instance;
    final long startNanos;
    volatile long endNanos;
    volatile Outcome outcome = Outcome.PENDING;
    volatile Long snapshotId;
    volatile String error;

    Attempt(String tag, int writer, String table, int instance, long startNanos) {
      this.tag = tag;
      this.writer = writer;
      this.table = table;
      this.instance = instance;
      this.startNanos = startNanos;
    }

    public void acknowledged(Long committedSnapshotId) {
      this.snapshotId = committedSnapshotId;
      finish(Outcome.ACKNOWLEDGED, null);
    }

    public void unknown(Throwable cause) {
      finish(Outcome.UNKNOWN, cause.toString());
    }

    public void rejected(Throwable cause) {
      finish(Outcome.REJECTED, cause.getMessage());
    }

    public void refused(Throwable cause) {
      finish(Outcome.REFUSED, cause.toString());
    }

    private void finish(Outcome result, String why) {
      this.endNanos = System.nanoTime();
      this.error = why;
      this.outcome = result;
    }

    public double latencyMillis() {
      return (endNanos - startNanos) / 1e6;
    }
  }

  /**
   * A 409 answered to one HTTP commit request of an attempt: the snapshot the request tried to add
   * and the current snapshot the server said the branch had moved to.
   */
  public record Conflict(
      Attempt attempt, Long addedSnapshotId, Long conflictingSnapshotId, String message) {}

  private final Map<String, Attempt> attempts = new ConcurrentHashMap<>();
  private final Queue<Conflict> conflicts = new ConcurrentLinkedQueue<>();

  public Attempt begin(String tag, int writer, String table, int instance) {
    Attempt attempt = new Attempt(tag, writer, table, instance, System.nanoTime());
    if (attempts.putIfAbsent(tag, attempt) != null) {
      throw new IllegalStateException("Attempt tag used twice: " + tag);
    }
    return attempt;
  }

  public void conflict(Attempt attempt, Long addedSnapshotId, String message) {
    conflicts.add(new Conflict(attempt, addedSnapshotId, conflictingSnapshot(message), message));
  }

  /** The snapshot id after {@code !=} in Iceberg's "branch main has changed" message, if any. */
  public static Long conflictingSnapshot(String message) {
    if (message == null) {
      return null;
    }
    Matcher matcher = CONFLICTING_SNAPSHOT.matcher(message);
    return matcher.find() ? Long.valueOf(matcher.group(1)) : null;
  }

  public Attempt attempt(String tag) {
    return attempts.get(tag);
  }

  public Collection<Attempt> attempts() {
    return attempts.values();
  }

  public List<Attempt> attemptsOn(String table) {
    List<Attempt> onTable = new ArrayList<>();
    for (Attempt attempt : attempts.values()) {
      if (attempt.table.equals(table)) {
        onTable.add(attempt);
      }
    }
    return onTable;
  }

  public Collection<Conflict> conflicts() {
    return conflicts;
  }

  public long count(Outcome outcome) {
    return attempts.values().stream().filter(a -> a.outcome == outcome).count();
  }
}
