package dev.floe.server.it.support;

import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.Table;

/** Data-file entries for commits: metadata only, no file is written. */
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
}
