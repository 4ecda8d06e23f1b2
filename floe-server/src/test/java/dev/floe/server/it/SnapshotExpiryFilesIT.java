package dev.floe.server.it;

import static dev.floe.server.it.support.DataFileEntries.path;
import static dev.floe.server.it.support.DataFileEntries.placed;
import static dev.floe.server.it.support.DataFileEntries.positionDeletes;
import static dev.floe.server.it.support.DataFileEntries.written;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.FileHashes;
import dev.floe.server.it.support.PlannedTasks;
import dev.floe.server.it.support.RestClients;
import dev.floe.server.it.support.SharedFloe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The files a snapshot expiry deletes, checked against the plain definition: exactly the manifest
 * lists, manifests, data and delete files that some snapshot reached before and no remaining one
 * reaches, inside the table's location; nothing else on disk changes. And commits by engines
 * (appends, overwrites, rollbacks) running alongside repeated expiries never lose a file that
 * committed metadata references, checked after every expiry.
 */
class SnapshotExpiryFilesIT {
  @RegisterExtension static final SharedFloe SHARED = SharedFloe.withTokens();

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "category", Types.StringType.get()));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("category").build();

  @Test
  void deletesExactlyTheFilesNoRemainingSnapshotReaches() throws Exception {
    FloeProcess floe = SHARED.process();
    String writer = AuthHttp.writerToken(floe, "reclaim-writer");
    TableIdentifier name = TableIdentifier.of(Namespace.of("reclaim"), "t");
    Set<String> before;
    Map<Long, Map<String, PlannedTasks.Planned>> plans = new HashMap<>();
    String table;
    String outside;
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      catalog.createNamespace(name.namespace());
      Table t =
          catalog.createTable(
              name, SCHEMA, SPEC, Map.of("commit.manifest.min-count-to-merge", "2"));
      table = t.location();
      DataFile a1 = written(t, "a");
      DataFile a2 = written(t, "b");
      t.newFastAppend().appendFile(a1).appendFile(a2).commit();
      DataFile a3 = written(t, "a");
      t.newAppend().appendFile(a3).commit(); // merges the manifests
      long tagged = t.currentSnapshot().snapshotId();
      t.newOverwrite().deleteFile(a1).addFile(written(t, "a")).commit();
      t.newRowDelta().addDeletes(positionDeletes(t, "b")).commit();
      t.manageSnapshots().createTag("keep", tagged).commit();
      t.newDelete().deleteFile(a3).commit();
      // A data file a client wrote outside the table's location, reached only by expired ones.
      outside = floe.warehouse().toUri() + "elsewhere/" + UUID.randomUUID() + ".parquet";
      DataFile stray = placed(t, outside, "b");
      t.newFastAppend().appendFile(stray).commit();
      t.newDelete().deleteFile(stray).commit();
      t.newFastAppend().appendFile(written(t, "c")).commit();
      t.newFastAppend().appendFile(written(t, "c")).commit();
      // Another table beside it: untouched.
      Table other = catalog.createTable(TableIdentifier.of("reclaim", "other"), SCHEMA, SPEC);
      other.newFastAppend().appendFile(written(other, "a")).commit();
      t.refresh();
      before = reachable(t);
      for (Snapshot snapshot : t.snapshots()) {
        plans.put(
            snapshot.snapshotId(), PlannedTasks.of(t.newScan().useSnapshot(snapshot.snapshotId())));
      }
    }
    Map<String, String> hashes = FileHashes.of(floe.warehouse());
    String route = "/management/v1/warehouses/default/namespaces/reclaim/tables/t/expire-snapshots";
    String body = "{\"older-than-ms\":" + System.currentTimeMillis() + ",\"retain-last\":2";

    JsonNode dry =
        AuthHttp.expect(
                200, floe.uri(), "POST", route, floe.adminToken(), body + ",\"dry-run\":true}")
            .json();
    assertThat(FileHashes.of(floe.warehouse())).as("a dry run deletes nothing").isEqualTo(hashes);
    JsonNode done =
        AuthHttp.expect(200, floe.uri(), "POST", route, floe.adminToken(), body + "}").json();

    Set<String> after;
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      Table t = catalog.loadTable(name);
      after = reachable(t);
      assertThat(t.snapshots()).hasSize(3); // the last two of main and the tagged one
      for (Snapshot snapshot : t.snapshots()) {
        assertThat(PlannedTasks.of(t.newScan().useSnapshot(snapshot.snapshotId())))
            .as("snapshot %s plans as before", snapshot.snapshotId())
            .isEqualTo(plans.get(snapshot.snapshotId()));
      }
    }
    Set<String> expected = new TreeSet<>();
    before.stream()
        .filter(file -> !after.contains(file) && path(file).startsWith(path(table)))
        .forEach(expected::add);
    assertThat(expected).as("the expiry has files to delete").hasSizeGreaterThan(8);
    assertThat(files(dry)).as("named by the dry run").isEqualTo(expected);
    assertThat(files(done)).as("deleted").isEqualTo(expected);
    assertThat(done.path("deleted-files").asLong()).isEqualTo(expected.size());
    assertThat(done.path("deleted-bytes").asLong()).isPositive();
    assertThat(done.path("kept-outside-table").asLong()).isEqualTo(1);
    assertThat(dry.path("deleted-bytes").asLong()).isEqualTo(done.path("deleted-bytes").asLong());

    for (String file : expected) {
      assertThat(Files.exists(path(file))).as("deleted: %s", file).isFalse();
    }
    for (String file : after) {
      assertThat(Files.exists(path(file))).as("still reached: %s", file).isTrue();
    }
    assertThat(Files.exists(path(outside))).as("outside the table: kept").isTrue();
    Map<String, String> now = FileHashes.of(floe.warehouse());
    Set<String> deletedRelative = new HashSet<>();
    int checksums = 0;
    for (String file : expected) {
      Path relative = floe.warehouse().relativize(path(file));
      deletedRelative.add(relative.toString());
      // The checksum Hadoop's local file system wrote beside a manifest goes with it.
      Path checksum = relative.resolveSibling("." + relative.getFileName() + ".crc");
      if (hashes.containsKey(checksum.toString())) {
        assertThat(now).as("its checksum deleted too").doesNotContainKey(checksum.toString());
        deletedRelative.add(checksum.toString());
        checksums++;
      }
    }
    assertThat(checksums).as("deleted manifests with checksums").isPositive();
    hashes.forEach(
        (file, hash) -> {
          if (!deletedRelative.contains(file)) {
            assertThat(now.get(file)).as("unchanged: %s", file).isEqualTo(hash);
          }
        });
    Path metadataDir = path(table + "/metadata");
    now.keySet().stream()
        .filter(file -> !hashes.containsKey(file))
        .forEach(
            file ->
                assertThat(floe.warehouse().resolve(file).getParent())
                    .as("new since: %s", file)
                    .isEqualTo(metadataDir));
  }

  @Test
  void commitsAlongsideRepeatedExpiriesNeverLoseAFileTheyReference() throws Exception {
    FloeProcess floe = SHARED.process();
    String writer = AuthHttp.writerToken(floe, "race-writer");
    TableIdentifier name = TableIdentifier.of(Namespace.of("racing"), "t");
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      catalog.createNamespace(name.namespace());
      Table t = catalog.createTable(name, SCHEMA, SPEC, Map.of("commit.retry.num-retries", "20"));
      t.newFastAppend().appendFile(written(t, "a")).commit();
    }
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService writers = Executors.newFixedThreadPool(2);
    List<Future<Integer>> committed = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      long seed = w;
      committed.add(writers.submit(() -> commitUntil(floe, writer, name, stop, new Random(seed))));
    }
    String route = "/management/v1/warehouses/default/namespaces/racing/tables/t/expire-snapshots";
    Random random = new Random(7);
    long deleted = 0;
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      for (int round = 0; round < 12; round++) {
        Thread.sleep(300);
        String body =
            "{\"older-than-ms\":"
                + System.currentTimeMillis()
                + ",\"retain-last\":"
                + (1 + random.nextInt(3))
                + "}";
        AuthHttp.Response answer =
            AuthHttp.send(floe.uri(), "POST", route, floe.adminToken(), body);
        assertThat(answer.status()).as("round %d: %s", round, answer.body()).isIn(200, 409);
        if (answer.status() == 200) {
          deleted += answer.json().path("deleted-files").asLong();
        }
        assertEveryReachedFileExists(catalog.loadTable(name), "after expiry " + round);
      }
      stop.set(true);
      int commits = 0;
      for (Future<Integer> writerCommits : committed) {
        commits += writerCommits.get();
      }
      writers.shutdown();
      assertEveryReachedFileExists(catalog.loadTable(name), "at the end");
      assertThat(commits).as("commits by the writers").isGreaterThan(10);
      assertThat(deleted).as("files deleted by the expiries").isPositive();
    }
  }

  @Test
  void metadataFilesOutOfTheLogGoOnlyWhenTheTableSaysSo() throws Exception {
    FloeProcess floe = SHARED.process();
    String writer = AuthHttp.writerToken(floe, "metadata-writer");
    TableIdentifier name = TableIdentifier.of(Namespace.of("logged"), "t");
    Path metadataDir;
    Set<String> logged = new TreeSet<>();
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      catalog.createNamespace(name.namespace());
      Table t =
          catalog.createTable(
              name,
              SCHEMA,
              SPEC,
              Map.of(
                  "write.metadata.delete-after-commit.enabled", "true",
                  "write.metadata.previous-versions-max", "2"));
      for (int i = 0; i < 5; i++) {
        t.newFastAppend().appendFile(written(t, "a")).commit();
      }
      metadataDir = path(t.location() + "/metadata");
      TableMetadata current = ((HasTableOperations) t).operations().current();
      logged.add(path(current.metadataFileLocation()).toString());
      current.previousFiles().forEach(e -> logged.add(path(e.file()).toString()));
    }
    Set<String> before = metadataFiles(metadataDir);
    assertThat(before).as("a file per commit").hasSize(6).containsAll(logged);
    assertThat(logged).hasSize(3);
    Thread.sleep(10);

    JsonNode done =
        AuthHttp.expect(
                200,
                floe.uri(),
                "POST",
                "/management/v1/warehouses/default/namespaces/logged/tables/t/expire-snapshots",
                floe.adminToken(),
                "{\"retain-last\":5}")
            .json();
    assertThat(done.path("expired-snapshot-ids")).isEmpty();
    Set<String> deleted = new TreeSet<>(before);
    deleted.removeAll(logged);
    assertThat(files(done))
        .as("the metadata files out of the log")
        .containsExactlyInAnyOrderElementsOf(
            deleted.stream().map(f -> Path.of(f).toUri().toString()).toList());
    assertThat(metadataFiles(metadataDir)).containsAll(logged).doesNotContainAnyElementsOf(deleted);
  }

  private static Set<String> metadataFiles(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      Set<String> found = new TreeSet<>();
      files
          .filter(f -> f.getFileName().toString().endsWith(".metadata.json"))
          .forEach(f -> found.add(f.toString()));
      return found;
    }
  }

  /** Appends, overwrites and rollbacks until told to stop; how many committed. */
  private static int commitUntil(
      FloeProcess floe, String token, TableIdentifier name, AtomicBoolean stop, Random random)
      throws IOException {
    int commits = 0;
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", token))) {
      Table t = catalog.loadTable(name);
      while (!stop.get()) {
        t.refresh();
        try {
          int op = random.nextInt(4);
          if (op == 0 && t.currentSnapshot() != null) {
            List<DataFile> live = new ArrayList<>();
            try (CloseableIterable<org.apache.iceberg.FileScanTask> tasks =
                t.newScan().planFiles()) {
              tasks.forEach(task -> live.add(task.file()));
            }
            if (!live.isEmpty()) {
              t.newOverwrite()
                  .deleteFile(live.get(random.nextInt(live.size())))
                  .addFile(written(t, "b"))
                  .commit();
            }
          } else if (op == 1) {
            List<Long> ids = new ArrayList<>();
            t.snapshots().forEach(s -> ids.add(s.snapshotId()));
            t.manageSnapshots().rollbackTo(ids.get(random.nextInt(ids.size()))).commit();
          } else {
            t.newAppend().appendFile(written(t, "a")).commit();
          }
          commits++;
        } catch (RuntimeException e) {
          // A rollback to a snapshot an expiry removed meanwhile, or a commit that lost its race
          // past the retries: refused, and nothing of it committed.
        }
      }
    }
    return commits;
  }

  private static void assertEveryReachedFileExists(Table table, String when) {
    for (String file : reachable(table)) {
      assertThat(Files.exists(path(file))).as("%s: %s", when, file).isTrue();
    }
  }

  /**
   * Every manifest list, manifest, and live data and delete file of every snapshot, as file URIs
   * spelled one way ({@code file:/} and {@code file:///} both occur).
   */
  private static Set<String> reachable(Table table) {
    FileIO io = table.io();
    List<String> files = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      files.add(snapshot.manifestListLocation());
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        files.add(manifest.path());
        try {
          if (manifest.content() == org.apache.iceberg.ManifestContent.DATA) {
            try (var reader = ManifestFiles.read(manifest, io, table.specs())) {
              reader.forEach(file -> files.add(file.location()));
            }
          } else {
            try (var reader = ManifestFiles.readDeleteManifest(manifest, io, table.specs())) {
              reader.forEach(file -> files.add(file.location()));
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    Set<String> spelled = new TreeSet<>();
    files.forEach(file -> spelled.add(path(file).toUri().toString()));
    return spelled;
  }

  private static Set<String> files(JsonNode answer) {
    assertThat(answer.path("files-truncated").asBoolean()).isFalse();
    Set<String> files = new TreeSet<>();
    answer.path("files").forEach(file -> files.add(path(file.asText()).toUri().toString()));
    return files;
  }
}
