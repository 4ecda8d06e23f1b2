package dev.floe.api.maintenance;

import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.location.InvalidLocationException;
import dev.floe.infra.storage.location.Location;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * The orphan files of a table: files under the locations the catalog holds for it that its current
 * metadata does not reach and that are older than a threshold. Reached are the current metadata
 * file and those in its log, statistics files, every snapshot's manifest list, its manifests and
 * the data and delete files their entries name. Only manifest lists and manifests inside the
 * table's locations are read (a writer chooses their paths; the catalog reads with its own
 * credentials). Nothing is deleted: this is a report.
 */
public final class OrphanFiles {
  private final Function<String, FileIO> storageIo;
  private final LocationAuthority authority;

  public OrphanFiles(Function<String, FileIO> storageIo, LocationAuthority authority) {
    this.storageIo = storageIo;
    this.authority = authority;
  }

  /** A file no metadata of the table reaches. */
  public record Orphan(String location, long sizeInBytes, long createdAtMs) {}

  /**
   * @param orphans the orphans older than the threshold, by location, at most the limit
   * @param listed how many files were found under the table's locations
   * @param truncated whether more orphans were found than listed
   */
  public record Report(List<Orphan> orphans, long listed, boolean truncated) {}

  public Report find(
      TableMetadata metadata, Collection<String> held, long createdBeforeMs, int limit) {
    FileIO io = storageIo.apply(metadata.location());
    if (!(io instanceof SupportsPrefixOperations listing)) {
      throw new UnsupportedOperationException(
          "The table's storage cannot list files: " + metadata.location());
    }
    Set<String> reached = reached(metadata, io, held);
    List<Orphan> orphans = new ArrayList<>();
    long listed = 0;
    boolean truncated = false;
    for (String location : held) {
      String prefix = location.endsWith("/") ? location : location + "/";
      for (FileInfo file : listing.listPrefix(prefix)) {
        listed++;
        String canonical = canonical(file.location());
        if (canonical == null
            || reached.contains(canonical)
            || reached.contains(checksummed(canonical))
            || file.createdAtMillis() >= createdBeforeMs) {
          continue;
        }
        if (orphans.size() < limit) {
          orphans.add(new Orphan(file.location(), file.size(), file.createdAtMillis()));
        } else {
          truncated = true;
        }
      }
    }
    orphans.sort(Comparator.comparing(Orphan::location));
    return new Report(orphans, listed, truncated);
  }

  private Set<String> reached(TableMetadata metadata, FileIO io, Collection<String> held) {
    Set<String> reached = new HashSet<>();
    add(reached, metadata.metadataFileLocation());
    metadata.previousFiles().forEach(entry -> add(reached, entry.file()));
    for (StatisticsFile statistics : metadata.statisticsFiles()) {
      add(reached, statistics.path());
    }
    for (PartitionStatisticsFile statistics : metadata.partitionStatisticsFiles()) {
      add(reached, statistics.path());
    }
    Set<String> read = new HashSet<>();
    for (Snapshot snapshot : metadata.snapshots()) {
      String list = snapshot.manifestListLocation();
      if (list == null || !authority.holdsFile(list, held)) {
        continue; // outside the table: not read, and nothing under the table is reached by it
      }
      add(reached, list);
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        add(reached, manifest.path());
        if (authority.holdsFile(manifest.path(), held) && read.add(manifest.path())) {
          entries(manifest, io, metadata).forEach(file -> add(reached, file));
        }
      }
    }
    return reached;
  }

  private static List<String> entries(ManifestFile manifest, FileIO io, TableMetadata metadata) {
    List<String> files = new ArrayList<>();
    if (manifest.content() == ManifestContent.DATA) {
      ManifestFiles.readPaths(manifest, io).forEach(files::add);
      return files;
    }
    try (ManifestReader<DeleteFile> reader =
        ManifestFiles.readDeleteManifest(manifest, io, metadata.specsById())) {
      reader.forEach(delete -> files.add(delete.location()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /**
   * The file a Hadoop checksum file ({@code .<name>.crc}, written beside each file by Hadoop's
   * local file system) belongs to, or null: it goes with its file.
   */
  private static String checksummed(String canonical) {
    int slash = canonical.lastIndexOf('/');
    String name = canonical.substring(slash + 1);
    if (name.length() <= 5 || !name.startsWith(".") || !name.endsWith(".crc")) {
      return null;
    }
    return canonical.substring(0, slash + 1) + name.substring(1, name.length() - 4);
  }

  private static void add(Set<String> reached, String location) {
    String canonical = canonical(location);
    if (canonical != null) {
      reached.add(canonical);
    }
  }

  private static String canonical(String location) {
    try {
      return Location.parse(location).canonical();
    } catch (InvalidLocationException e) {
      return null;
    }
  }
}
