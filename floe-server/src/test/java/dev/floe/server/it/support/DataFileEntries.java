package dev.floe.server.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.Table;

/**
 * Data-file entries for commits: {@link #of} writes no file; {@link #written} and {@link #placed}
 * write a few bytes where the entry points, for tests that watch files come and go on a local
 * warehouse.
 */
public final class DataFileEntries {
  private DataFileEntries() {}

  /** A 10-row entry under the table's {@code data/}, in partition {@code category} if any. */
  public static DataFile of(Table table, String category) {
    DataFiles.Builder builder =
        DataFiles.builder(table.spec())
            .withPath(table.location() + "/data/" + UUID.randomUUID() + ".parquet")
            .withFileSizeInBytes(1024)
            .withRecordCount(10);
    if (table.spec().isPartitioned()) {
      builder.withPartitionPath("category=" + category);
    }
    return builder.build();
  }

  /** A 1-row entry whose file exists, under the table's {@code data/category=<category>/}. */
  public static DataFile written(Table table, String category) {
    return placed(table, fileUnder(table, category, ".parquet"), category);
  }

  /** A 1-row entry whose file exists at {@code location}, wherever that is. */
  public static DataFile placed(Table table, String location, String category) {
    DataFiles.Builder builder =
        DataFiles.builder(table.spec())
            .withPath(location)
            .withFileSizeInBytes(write(location))
            .withRecordCount(1);
    if (table.spec().isPartitioned()) {
      builder.withPartitionPath("category=" + category);
    }
    return builder.build();
  }

  /** A position delete file entry whose file exists, beside {@link #written}'s files. */
  public static DeleteFile positionDeletes(Table table, String category) {
    String location = fileUnder(table, category, "-deletes.parquet");
    return FileMetadata.deleteFileBuilder(table.spec())
        .ofPositionDeletes()
        .withPath(location)
        .withFileSizeInBytes(write(location))
        .withRecordCount(1)
        .withPartitionPath("category=" + category)
        .build();
  }

  /** A {@code file:} location as a path ({@code file:/x} and {@code file:///x} both occur). */
  public static Path path(String location) {
    return Path.of(URI.create(location.replaceFirst("^file:/+", "file:///")));
  }

  private static String fileUnder(Table table, String category, String suffix) {
    String partition = table.spec().isPartitioned() ? "category=" + category + "/" : "";
    return table.location() + "/data/" + partition + UUID.randomUUID() + suffix;
  }

  private static long write(String location) {
    Path file = path(location);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, "bytes of " + file.getFileName());
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
