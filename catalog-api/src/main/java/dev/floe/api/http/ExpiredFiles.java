package dev.floe.api.http;

import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.location.InvalidLocationException;
import dev.floe.infra.storage.location.Location;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.iceberg.util.PropertyUtil;

/**
 * The files an expiry deletes, and what it counts of them: Iceberg's clean-up deletes through
 * {@link #delete}, which removes only files strictly inside a location the directory holds for the
 * table (the rest are counted as outside and left), with the Hadoop checksum beside a local file;
 * in a dry run nothing is removed, only named and counted.
 */
final class ExpiredFiles {
  /** The most file locations one answer names; counts and bytes cover all. */
  static final int MAX_LISTED_FILES = 10_000;

  private final Supplier<FileIO> io;
  private final LocationAuthority authority;
  private final List<String> held;
  private final boolean dryRun;
  private final List<String> listed = Collections.synchronizedList(new ArrayList<>());
  private final LongAdder files = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private final LongAdder outside = new LongAdder();

  ExpiredFiles(
      Supplier<FileIO> io, LocationAuthority authority, List<String> held, boolean dryRun) {
    this.io = io;
    this.authority = authority;
    this.held = held;
    this.dryRun = dryRun;
  }

  /** The files deleted (or that would be), at most {@link #MAX_LISTED_FILES}. */
  List<String> listed() {
    return List.copyOf(listed);
  }

  long files() {
    return files.sum();
  }

  long bytes() {
    return bytes.sum();
  }

  long outside() {
    return outside.sum();
  }

  /** Deletes one file Iceberg's clean-up names, if the table holds it. */
  void delete(String file) {
    if (!authority.holdsFile(file, held)) {
      outside.increment();
      return;
    }
    FileIO io = this.io.get();
    InputFile input = io.newInputFile(file);
    long size;
    try {
      size = input.getLength();
    } catch (NotFoundException | UncheckedIOException e) {
      if (!input.exists()) {
        return; // gone already: nothing to reclaim
      }
      throw e;
    }
    InputFile checksum = checksumOf(io, file);
    if (checksum != null) {
      size += checksum.getLength();
    }
    if (!dryRun) {
      io.deleteFile(file);
      if (checksum != null) {
        io.deleteFile(checksum.location());
      }
    }
    files.increment();
    bytes.add(size);
    if (listed.size() < MAX_LISTED_FILES) {
      listed.add(file);
    }
  }

  /**
   * With {@code write.metadata.delete-after-commit.enabled}, the metadata files that fell out of
   * the table's metadata log ({@code write.metadata.previous-versions-max}): JSON metadata files
   * beside the current one that are neither it nor in its log, and written before the log's oldest
   * entry, so a file a commit is writing now is never one of them.
   */
  void deleteMetadataFilesOutOfLog(TableMetadata current) {
    if (!PropertyUtil.propertyAsBoolean(
            current.properties(),
            TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED,
            TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED_DEFAULT)
        || !(io.get() instanceof SupportsPrefixOperations listing)) {
      return;
    }
    String file = current.metadataFileLocation();
    Set<String> logged = new HashSet<>();
    logged.add(canonical(file));
    long before = current.lastUpdatedMillis();
    for (TableMetadata.MetadataLogEntry entry : current.previousFiles()) {
      logged.add(canonical(entry.file()));
      before = Math.min(before, entry.timestampMillis());
    }
    for (FileInfo found : listing.listPrefix(file.substring(0, file.lastIndexOf('/') + 1))) {
      if (found.location().endsWith(".metadata.json")
          && !logged.contains(canonical(found.location()))
          && found.createdAtMillis() < before) {
        delete(found.location());
      }
    }
  }

  private static String canonical(String location) {
    try {
      return Location.parse(location).canonical();
    } catch (InvalidLocationException e) {
      return location;
    }
  }

  /**
   * The checksum Hadoop's local file system writes beside a file it wrote ({@code .<name>.crc}), if
   * there is one: it goes with its file.
   */
  private static InputFile checksumOf(FileIO io, String file) {
    if (!file.startsWith("file:")) {
      return null;
    }
    int slash = file.lastIndexOf('/');
    InputFile checksum =
        io.newInputFile(file.substring(0, slash + 1) + "." + file.substring(slash + 1) + ".crc");
    return checksum.exists() ? checksum : null;
  }
}
