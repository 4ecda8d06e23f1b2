package dev.floe.server.it.support;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/**
 * Tables made at random for scan planning's checks, from a seed: v2 or v3, partitioned by category,
 * by a bucket of the id or not at all, then appends, position deletes (deletion vectors on v3),
 * equality deletes, deleted data files, a new partition spec and a new column, in random order.
 * Metadata only: each data file's entry has a category, an id range as its column bounds and a
 * record count, and no file is written. Also random filters over those columns.
 */
public final class RandomTables {
  public static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()));

  private static final String[] CATEGORIES = {"a", "b", "c", "d", "e"};

  private final Random random;
  private final Table table;
  private final List<DataFile> live = new ArrayList<>();
  private final Set<String> withVector = new HashSet<>();

  private RandomTables(Random random, Table table) {
    this.random = random;
    this.table = table;
  }

  /** A table made from the seed: its steps committed one by one through the catalog. */
  public static Table create(Catalog catalog, TableIdentifier name, long seed, int steps) {
    Random random = new Random(seed);
    int version = random.nextBoolean() ? 2 : 3;
    PartitionSpec spec =
        switch (random.nextInt(3)) {
          case 0 -> PartitionSpec.unpartitioned();
          case 1 -> PartitionSpec.builderFor(SCHEMA).identity("category").build();
          default -> PartitionSpec.builderFor(SCHEMA).bucket("id", 4).build();
        };
    Table table =
        catalog.createTable(
            name, SCHEMA, spec, Map.of(TableProperties.FORMAT_VERSION, Integer.toString(version)));
    RandomTables tables = new RandomTables(random, table);
    tables.append(1 + random.nextInt(4));
    for (int i = 0; i < steps; i++) {
      tables.step(version);
    }
    table.refresh();
    return table;
  }

  private void step(int version) {
    int kind = random.nextInt(10);
    if (kind < 4 || live.isEmpty()) {
      append(1 + random.nextInt(5));
    } else if (kind < 6) {
      positionDeletes(version);
    } else if (kind < 7) {
      equalityDeletes();
    } else if (kind < 8) {
      DataFile gone = live.remove(random.nextInt(live.size()));
      table.newDelete().deleteFile(gone).commit();
    } else if (kind < 9) {
      evolveSpec();
    } else if (table.schema().findField("extra") == null) {
      table.updateSchema().addColumn("extra", Types.IntegerType.get()).commit();
    } else {
      append(1);
    }
  }

  private void append(int files) {
    var append = table.newFastAppend();
    for (int i = 0; i < files; i++) {
      DataFile file = dataFile(table.spec());
      live.add(file);
      append.appendFile(file);
    }
    append.commit();
  }

  private DataFile dataFile(PartitionSpec spec) {
    String category = CATEGORIES[random.nextInt(CATEGORIES.length)];
    long low = random.nextInt(1000);
    long high = low + random.nextInt(200);
    long rows = 1 + random.nextInt(100);
    DataFiles.Builder builder =
        DataFiles.builder(spec)
            .withPath(table.location() + "/data/" + UUID.randomUUID() + ".parquet")
            .withFileSizeInBytes(1024 + rows)
            .withMetrics(
                new Metrics(
                    rows,
                    null,
                    Map.of(1, rows, 2, rows),
                    Map.of(1, 0L, 2, 0L),
                    null,
                    Map.of(1, bound(Types.LongType.get(), low), 2, bound(category)),
                    Map.of(1, bound(Types.LongType.get(), high), 2, bound(category))));
    if (spec.isPartitioned()) {
      List<String> values = new ArrayList<>();
      for (PartitionField field : spec.fields()) {
        values.add(
            field.transform().isIdentity()
                ? category
                : Integer.toString(
                    random.nextInt(field.transform().toString().contains("2") ? 2 : 4)));
      }
      builder.withPartitionValues(values);
    }
    return builder.build();
  }

  private void positionDeletes(int version) {
    DataFile target = live.get(random.nextInt(live.size()));
    if (version >= 3 && !withVector.add(target.location())) {
      return;
    }
    PartitionSpec spec = table.specs().get(target.specId());
    FileMetadata.Builder delete =
        FileMetadata.deleteFileBuilder(spec)
            .ofPositionDeletes()
            .withRecordCount(1 + random.nextInt((int) target.recordCount()))
            .withPartition(target.partition());
    if (version >= 3) {
      delete
          .withPath(table.location() + "/data/" + UUID.randomUUID() + "-dv.puffin")
          .withFormat(FileFormat.PUFFIN)
          .withFileSizeInBytes(256)
          .withReferencedDataFile(target.location())
          .withContentOffset(4)
          .withContentSizeInBytes(64);
    } else {
      delete
          .withPath(table.location() + "/data/" + UUID.randomUUID() + "-deletes.parquet")
          .withFormat(FileFormat.PARQUET)
          .withFileSizeInBytes(128);
      if (random.nextBoolean()) {
        delete.withReferencedDataFile(target.location());
      }
    }
    table.newRowDelta().addDeletes(delete.build()).commit();
  }

  private void equalityDeletes() {
    DataFile like = live.get(random.nextInt(live.size()));
    PartitionSpec spec = table.specs().get(like.specId());
    DeleteFile delete =
        FileMetadata.deleteFileBuilder(spec)
            .ofEqualityDeletes(1)
            .withPath(table.location() + "/data/" + UUID.randomUUID() + "-eq.parquet")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(128)
            .withRecordCount(1 + random.nextInt(5))
            .withPartition(like.partition())
            .build();
    table.newRowDelta().addDeletes(delete).commit();
  }

  private void evolveSpec() {
    boolean hasCategory = table.spec().fields().stream().anyMatch(f -> f.transform().isIdentity());
    if (!hasCategory) {
      table.updateSpec().addField("category").commit();
    } else if (table.spec().fields().stream().noneMatch(f -> f.name().equals("id_bucket_2"))) {
      table.updateSpec().addField("id_bucket_2", Expressions.bucket("id", 2)).commit();
    }
  }

  private static ByteBuffer bound(Types.LongType type, long value) {
    return Conversions.toByteBuffer(type, value);
  }

  private static ByteBuffer bound(String category) {
    return Conversions.toByteBuffer(Types.StringType.get(), category);
  }

  /**
   * A filter over {@code id} and {@code category}, nested up to {@code depth}; with {@code upper},
   * the names in upper case (for case-insensitive scans).
   */
  public static Expression filter(Random random, int depth, boolean upper) {
    if (depth > 0 && random.nextInt(3) == 0) {
      Expression left = filter(random, depth - 1, upper);
      return switch (random.nextInt(3)) {
        case 0 -> Expressions.and(left, filter(random, depth - 1, upper));
        case 1 -> Expressions.or(left, filter(random, depth - 1, upper));
        default -> Expressions.not(left);
      };
    }
    String idName = upper ? "ID" : "id";
    String categoryName = upper ? "CATEGORY" : "category";
    long id = random.nextInt(1200);
    String category = CATEGORIES[random.nextInt(CATEGORIES.length)];
    return switch (random.nextInt(10)) {
      case 0 -> Expressions.lessThan(idName, id);
      case 1 -> Expressions.greaterThanOrEqual(idName, id);
      case 2 -> Expressions.equal(idName, id);
      case 3 -> Expressions.in(idName, id, id + 7, id + 300);
      case 4 -> Expressions.equal(categoryName, category);
      case 5 -> Expressions.notEqual(categoryName, category);
      case 6 -> Expressions.in(categoryName, category, "z");
      case 7 -> Expressions.startsWith(categoryName, category);
      case 8 -> Expressions.isNull(categoryName);
      default -> Expressions.notNull(idName);
    };
  }
}
