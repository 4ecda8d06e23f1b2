package dev.floe.api.planning;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.floe.infra.storage.authority.LocationAuthority;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Scan;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.util.ThreadPools;

/**
 * Plans table scans on the catalog with Iceberg's own scan planning (the same code a client runs),
 * so a plan served equals the plan a client would make: a point-in-time scan of a snapshot, or an
 * incremental scan of the appends after one snapshot up to another. A snapshot with more data
 * manifests than one request may read is planned in slices of {@link #manifestsPerTask()}
 * manifests, each answered by a plan task ({@link SlicedSnapshot}).
 *
 * <p>Every manifest list and manifest it reads must lie inside a location the catalog holds for the
 * table (by the location authority): a writer chooses those paths, and the catalog reads with its
 * own credentials, so a path into another table's files is refused rather than read.
 */
public final class ScanPlanner {
  private final Function<String, FileIO> storageIo;
  private final LocationAuthority authority;
  private final int manifestsPerTask;
  private final long cacheBytes;
  private final Map<FileIO, FileIO> cachingIo = new ConcurrentHashMap<>();
  private final ExecutorService readers;

  /**
   * The snapshots (parsed instances, by identity) whose manifests were found inside the locations
   * the table holds, with those locations. An instance reads its manifest list once and keeps it
   * ({@link #confined}), so its check holds for as long as the instance lives; a manifest list file
   * rewritten since is read again only by a new instance, which is checked again.
   */
  private final Cache<Snapshot, List<String>> confinedSnapshots =
      Caffeine.newBuilder().weakKeys().maximumSize(10_000).executor(Runnable::run).build();

  /** Parsed metadata by file, each with its snapshots' manifest lists once read. */
  private final Cache<String, Parsed> parsed;

  private record Parsed(TableMetadata metadata, int chars) {}

  /**
   * @param storageIo the FileIO of the storage that holds a location
   * @param manifestsPerTask the most data manifests one request plans
   * @param cacheBytes the bound of the manifest cache of each storage
   */
  public ScanPlanner(
      Function<String, FileIO> storageIo,
      LocationAuthority authority,
      int manifestsPerTask,
      long cacheBytes) {
    this.storageIo = storageIo;
    this.authority = authority;
    this.manifestsPerTask = manifestsPerTask;
    this.cacheBytes = cacheBytes;
    this.readers = ThreadPools.newExitingWorkerPool("floe-plan-reads", 8);
    this.parsed =
        Caffeine.newBuilder()
            .maximumWeight(64L * 1024 * 1024)
            .<String, Parsed>weigher((key, parsed) -> parsed.chars())
            .expireAfterAccess(Duration.ofMinutes(10))
            .executor(Runnable::run)
            .build();
  }

  public int manifestsPerTask() {
    return manifestsPerTask;
  }

  /** A request that cannot be planned as asked (an unknown column or snapshot, a bad filter). */
  public static final class BadScanException extends RuntimeException {
    BadScanException(String message) {
      super(message);
    }
  }

  /** A table whose metadata names a file outside the locations the catalog holds for it. */
  public static final class OutsideTableException extends RuntimeException {
    OutsideTableException(String message) {
      super(message);
    }
  }

  /**
   * What a plan request gets: all its file scan tasks, or the slices of data manifests to hand out
   * as plan tasks.
   *
   * @param snapshotId the snapshot planned (null for an empty table)
   */
  public record Plan(Long snapshotId, List<FileScanTask> tasks, List<Slice> slices) {}

  /** The data manifests {@code [from, to)} of a snapshot. */
  public record Slice(int from, int to) {}

  /** The metadata document as Iceberg's table metadata, parsed once per file and content. */
  public TableMetadata metadata(String location, String json) {
    String key = location + '#' + json.length() + '#' + json.hashCode();
    return parsed
        .get(key, k -> new Parsed(TableMetadataParser.fromJson(location, json), json.length()))
        .metadata();
  }

  /** Plans a request: at once when small or incremental, else as slices for plan tasks. */
  public Plan plan(
      TableMetadata metadata, String name, PlanTableScanRequest request, Collection<String> held) {
    Table table = table(metadata, name, null);
    if (request.startSnapshotId() != null) {
      return new Plan(request.endSnapshotId(), incremental(table, request, held), null);
    }
    Snapshot snapshot = snapshot(table, request.snapshotId());
    if (snapshot == null) {
      configure(table.newScan(), request);
      return new Plan(null, List.of(), null);
    }
    long id = snapshot.snapshotId();
    List<ManifestFile> data = confined(table, snapshot, held).dataManifests(table.io());
    if (data.size() <= manifestsPerTask) {
      return new Plan(id, collect(scan(metadata, name, request, id, null)), null);
    }
    // Checked now, so that a bad request is refused before any plan task is handed out.
    scan(metadata, name, request, id, new Slice(0, 0));
    List<Slice> slices = new ArrayList<>();
    for (int from = 0; from < data.size(); from += manifestsPerTask) {
      slices.add(new Slice(from, Math.min(data.size(), from + manifestsPerTask)));
    }
    return new Plan(id, null, slices);
  }

  /**
   * The file scan tasks of a plan task: one slice of a snapshot's data manifests, or with no slice
   * the whole snapshot, or the request's incremental scan when it is one.
   */
  public List<FileScanTask> planSlice(
      TableMetadata current,
      String name,
      PlanTableScanRequest request,
      long snapshotId,
      int schemaId,
      Slice slice,
      Collection<String> held) {
    TableMetadata metadata = withSchema(current, schemaId);
    Table table = table(metadata, name, null);
    if (request.startSnapshotId() != null) {
      return incremental(table, request, held);
    }
    Snapshot snapshot = table.snapshot(snapshotId);
    if (snapshot == null) {
      throw new BadScanException("Snapshot " + snapshotId + " is no longer in the table");
    }
    confined(table, snapshot, held);
    return collect(scan(metadata, name, request, snapshotId, slice));
  }

  /**
   * The table as planned with the schema a plan used, when the table's schema changed since: a plan
   * task's filter binds to the same columns as its plan's, and its parts are the plan's.
   */
  private static TableMetadata withSchema(TableMetadata metadata, int schemaId) {
    if (schemaId == metadata.currentSchemaId()) {
      return metadata;
    }
    if (!metadata.schemasById().containsKey(schemaId)) {
      throw new BadScanException(
          "The schema the plan was made with is no longer in the table: plan the scan again");
    }
    return TableMetadata.buildFrom(metadata).setCurrentSchema(schemaId).build();
  }

  /**
   * The request's scan of a snapshot (or of a slice of its data manifests), with the schema it asks
   * for: the snapshot's own when it names the snapshot with {@code use-snapshot-schema} (time
   * travel), else the table's (the main branch, or another branch). A scan with the table's schema
   * of a snapshot written with another is planned through a branch at that snapshot, as a client
   * reading a branch would plan it.
   */
  private TableScan scan(
      TableMetadata metadata,
      String name,
      PlanTableScanRequest request,
      long snapshotId,
      Slice slice) {
    boolean snapshotSchema = request.snapshotId() != null && request.useSnapshotSchema();
    Integer schemaId = metadata.snapshot(snapshotId).schemaId();
    if (snapshotSchema || schemaId == null || schemaId == metadata.currentSchemaId()) {
      return configure(table(metadata, name, slice).newScan().useSnapshot(snapshotId), request);
    }
    String ref = "floe-plan-" + snapshotId;
    TableMetadata withRef =
        TableMetadata.buildFrom(metadata)
            .setRef(ref, SnapshotRef.branchBuilder(snapshotId).build())
            .build();
    return configure(table(withRef, name, slice).newScan().useRef(ref), request);
  }

  private List<FileScanTask> incremental(
      Table table, PlanTableScanRequest request, Collection<String> held) {
    long start = request.startSnapshotId();
    long end = request.endSnapshotId();
    snapshot(table, start);
    Snapshot snapshot = snapshot(table, end);
    // Walked by hand, at most once round the table's snapshots: a writer may commit parents that
    // form a cycle, which Iceberg's own walk would follow for ever.
    int left = ((BaseTable) table).operations().current().snapshots().size();
    List<Snapshot> appended = new ArrayList<>();
    while (snapshot != null && snapshot.snapshotId() != start && left-- > 0) {
      appended.add(snapshot);
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
    if (snapshot == null || snapshot.snapshotId() != start || appended.isEmpty()) {
      throw new BadScanException(
          "Snapshot " + start + " is not an ancestor of snapshot " + end + " in the table");
    }
    for (Snapshot each : appended) {
      confined(table, each, held);
    }
    return collect(
        configure(
            table.newIncrementalAppendScan().fromSnapshotExclusive(start).toSnapshot(end),
            request));
  }

  /**
   * The request applied to a scan, checked against the scan's schema first: an unknown column in
   * {@code select}, {@code stats-fields} or the filter, or a literal of the wrong type, is the
   * caller's mistake.
   */
  private <T extends Scan<T, FileScanTask, ?>> T configure(T scan, PlanTableScanRequest request) {
    boolean caseSensitive = request.caseSensitive();
    T configured = scan.caseSensitive(caseSensitive);
    Schema schema = configured.schema();
    try {
      if (request.select() != null && !request.select().isEmpty()) {
        for (String column : request.select()) {
          if ((caseSensitive ? schema.findField(column) : schema.caseInsensitiveFindField(column))
              == null) {
            throw new BadScanException("Cannot find selected column " + column + " in the schema");
          }
        }
        configured = configured.select(request.select());
      }
      if (request.filter() != null) {
        Binder.bind(schema.asStruct(), request.filter(), caseSensitive);
        configured = configured.filter(request.filter());
      }
      if (request.statsFields() != null) {
        for (String field : request.statsFields()) {
          if (schema.findField(field) == null) {
            throw new BadScanException("Cannot find stats field " + field + " in the schema");
          }
        }
        configured = configured.includeColumnStats(request.statsFields());
      }
    } catch (ValidationException | IllegalArgumentException | UnsupportedOperationException e) {
      throw new BadScanException(e.getMessage());
    }
    return configured.planWith(readers);
  }

  /**
   * The scan's tasks in the order of their data files' locations: manifests are read in parallel,
   * and a plan task that hands out a part of a plan by position needs the same order every time.
   */
  private static List<FileScanTask> collect(Scan<?, FileScanTask, ?> scan) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> files = scan.planFiles()) {
      files.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    tasks.sort(Comparator.comparing(task -> task.file().location()));
    return tasks;
  }

  private static Snapshot snapshot(Table table, Long snapshotId) {
    if (snapshotId == null) {
      return table.currentSnapshot();
    }
    Snapshot snapshot = table.snapshot(snapshotId);
    if (snapshot == null) {
      throw new BadScanException("Cannot find snapshot " + snapshotId + " in the table");
    }
    return snapshot;
  }

  /**
   * The snapshot, once its manifest list and every manifest in it are inside the table. Its
   * manifests are read under its lock, so that the list checked is the list it keeps and every
   * later plan of it uses: two first reads at once could otherwise keep a list rewritten between
   * them, unchecked.
   */
  private Snapshot confined(Table table, Snapshot snapshot, Collection<String> held) {
    List<String> holding = List.copyOf(held);
    if (holding.equals(confinedSnapshots.getIfPresent(snapshot))) {
      return snapshot;
    }
    String list = snapshot.manifestListLocation();
    if (list != null && !authority.holdsFile(list, holding)) {
      throw new OutsideTableException(
          "The manifest list of snapshot "
              + snapshot.snapshotId()
              + " is outside the locations the catalog holds for the table");
    }
    List<ManifestFile> manifests = new ArrayList<>();
    synchronized (snapshot) {
      manifests.addAll(snapshot.dataManifests(table.io()));
      manifests.addAll(snapshot.deleteManifests(table.io()));
    }
    for (ManifestFile manifest : manifests) {
      if (!authority.holdsFile(manifest.path(), holding)) {
        throw new OutsideTableException(
            "A manifest of snapshot "
                + snapshot.snapshotId()
                + " is outside the locations the catalog holds for the table");
      }
    }
    confinedSnapshots.put(snapshot, holding);
    return snapshot;
  }

  /** The table as of this metadata, reading through the cache; a slice's scans see the slice. */
  private Table table(TableMetadata metadata, String name, Slice slice) {
    FileIO storage = storageIo.apply(metadata.location());
    FileIO io = cachingIo.computeIfAbsent(storage, s -> new ManifestCachingIO(s, cacheBytes));
    StaticTableOperations ops = new StaticTableOperations(metadata, io);
    if (slice == null) {
      return new BaseTable(ops, name);
    }
    return new BaseTable(ops, name) {
      @Override
      public Snapshot snapshot(long snapshotId) {
        Snapshot snapshot = super.snapshot(snapshotId);
        return snapshot == null ? null : new SlicedSnapshot(snapshot, slice.from(), slice.to());
      }
    };
  }
}
