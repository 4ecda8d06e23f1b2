package dev.floe.engines;

import dev.floe.infra.testing.FloeProcess;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * A local Spark session with an Iceberg REST catalog pointed at Floe: only the settings README.md
 * shows (URI, warehouse, token).
 */
final class SparkSessions {
  private SparkSessions() {}

  static SparkSession.Builder withCatalog(
      String appName, Path tempDir, String catalog, FloeProcess floe, String warehouse) {
    String prefix = "spark.sql.catalog." + catalog;
    return SparkSession.builder()
        .appName(appName)
        .master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.host", "localhost")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.warehouse.dir", tempDir.resolve("spark-warehouse").toUri().toString())
        .config(
            "spark.sql.extensions",
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
        .config(prefix, "org.apache.iceberg.spark.SparkCatalog")
        .config(prefix + ".type", "rest")
        .config(prefix + ".uri", floe.uri())
        .config(prefix + ".warehouse", warehouse)
        .config(prefix + ".token", floe.adminToken());
  }
}
