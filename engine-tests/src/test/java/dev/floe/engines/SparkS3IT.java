package dev.floe.engines;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.infra.testing.LocalSts;
import dev.floe.infra.testing.S3ProxyProcess;
import dev.floe.infra.testing.ServerMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark on an S3 warehouse: Floe's warehouse lives on a real S3 API server (S3Proxy on loopback,
 * started here), and Spark is given only the catalog's URI and the warehouse name. The access
 * delegation header comes from Floe's /v1/config; endpoint, path style, region and the temporary
 * credentials from the table's load answer (a local STS endpoint issues them, and S3Proxy checks
 * every request's signature against them). Spark writes Parquet files and reads them back; and the
 * same through a second warehouse that signs: Spark, with a writer's token and no S3 credentials,
 * has Floe sign each of its S3 requests.
 *
 * <p>Not shown here: S3Proxy ignores session policies, so confinement to the table's prefix rests
 * on the policy Floe sends (asserted in S3WarehouseIT and S3SessionPolicyTest).
 */
class SparkS3IT {
  private static final String KEY = "AKIASPARKTEST";
  private static final String SECRET = "spark-test-secret";

  @TempDir static Path tempDir;
  private static S3ProxyProcess s3;
  private static LocalSts sts;
  private static FloeProcess floe;
  private static SparkSession spark;

  @BeforeAll
  static void start() throws Exception {
    // The engine's own SDK setting: S3Proxy cannot check the trailing checksums the AWS SDK sends
    // by default; AWS S3 and MinIO need no such setting.
    System.setProperty("aws.requestChecksumCalculation", "WHEN_REQUIRED");
    System.setProperty("aws.responseChecksumValidation", "WHEN_REQUIRED");
    s3 = new S3ProxyProcess(tempDir.resolve("s3"), KEY, SECRET).bucket("lake");
    s3.start();
    sts = new LocalSts(KEY, SECRET);
    Map<String, String> props = new HashMap<>();
    props.put("floe.auth", "token");
    props.putAll(s3.storage("floe.warehouse.lake.", "s3://lake/warehouse"));
    props.put("floe.warehouse.lake.s3.role-arn", "arn:aws:iam::000000000000:role/floe");
    props.put("floe.warehouse.lake.s3.sts-endpoint", sts.endpoint());
    props.put("floe.warehouse.lake.vending.enabled", "true");
    // A second warehouse in the same bucket whose engines hold no credentials: Floe signs.
    props.putAll(s3.storage("floe.warehouse.signed.", "s3://lake/signed"));
    props.put("floe.warehouse.signed.remote-signing.enabled", "true");
    floe =
        new FloeProcess(tempDir.resolve("floe").resolve("data"), props)
            .copiedTo(tempDir.resolve("floe").resolve("server"))
            .start();
    AdminHttp.expect(floe, 201, "POST", "/management/v1/principals", "{\"name\":\"sparky\"}");
    String writer =
        AdminHttp.expect(floe, 201, "POST", "/management/v1/principals/sparky/tokens", "{}")
            .path("token")
            .asText();
    AdminHttp.expect(
        floe, 204, "PUT", "/management/v1/principals/sparky/roles/signed", "{\"role\":\"writer\"}");
    spark =
        SparkSessions.withCatalog("floe-engine-tests-s3", tempDir, "lake", floe, "lake")
            .config("spark.sql.catalog.signed", "org.apache.iceberg.spark.SparkCatalog")
            .config("spark.sql.catalog.signed.type", "rest")
            .config("spark.sql.catalog.signed.uri", floe.uri())
            .config("spark.sql.catalog.signed.warehouse", "signed")
            .config("spark.sql.catalog.signed.token", writer)
            .getOrCreate();
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (spark != null) {
        spark.stop();
      }
    } finally {
      if (floe != null) {
        floe.close();
      }
      if (sts != null) {
        sts.close();
      }
      if (s3 != null) {
        s3.close();
      }
    }
  }

  @Test
  void sparkWritesAndReadsParquetOnS3WithVendedCredentials() throws Exception {
    spark.sql("CREATE NAMESPACE lake.db");
    spark.sql(
        "CREATE TABLE lake.db.sales (id bigint, region string, amount double) USING iceberg"
            + " PARTITIONED BY (region)");
    spark.sql("INSERT INTO lake.db.sales VALUES (1, 'eu', 10.5), (2, 'us', 20.0), (3, 'eu', 7.5)");
    spark.sql("UPDATE lake.db.sales SET amount = amount * 2 WHERE region = 'eu'");

    assertThat(spark.sql("SELECT * FROM lake.db.sales ORDER BY id").collectAsList())
        .containsExactly(
            RowFactory.create(1L, "eu", 21.0),
            RowFactory.create(2L, "us", 20.0),
            RowFactory.create(3L, "eu", 15.0));

    List<Row> files = spark.sql("SELECT file_path FROM lake.db.sales.files").collectAsList();
    assertThat(files)
        .isNotEmpty()
        .allSatisfy(
            file -> assertThat(file.getString(0)).startsWith("s3://lake/warehouse/db/sales-"));
    // The Parquet files are in the bucket (S3Proxy keeps objects as files), written by Spark.
    try (Stream<Path> stored = Files.walk(tempDir.resolve("s3/data/lake/warehouse/db"))) {
      assertThat(stored.map(Path::toString).filter(p -> p.endsWith(".parquet")).count())
          .isGreaterThanOrEqualTo(2);
    }
    // Spark's writes went through credentials STS issued for this table's prefix only.
    assertThat(sts.requests())
        .isNotEmpty()
        .allSatisfy(
            request ->
                assertThat(request.get("Policy"))
                    .contains("\"arn:aws:s3:::lake/warehouse/db/sales-")
                    .doesNotContain("arn:aws:s3:::lake/warehouse/*"));
  }

  @Test
  void sparkWritesAndReadsParquetOnS3ThroughRemoteSigning() throws Exception {
    int vended = sts.requests().size();
    long signed = signedRequests();
    spark.sql("CREATE NAMESPACE signed.db");
    spark.sql(
        "CREATE TABLE signed.db.sales (id bigint, region string, amount double) USING iceberg"
            + " PARTITIONED BY (region)");
    spark.sql(
        "INSERT INTO signed.db.sales VALUES (1, 'eu', 10.5), (2, 'us', 20.0), (3, 'eu', 7.5)");
    spark.sql("UPDATE signed.db.sales SET amount = amount * 2 WHERE region = 'eu'");

    assertThat(spark.sql("SELECT * FROM signed.db.sales ORDER BY id").collectAsList())
        .containsExactly(
            RowFactory.create(1L, "eu", 21.0),
            RowFactory.create(2L, "us", 20.0),
            RowFactory.create(3L, "eu", 15.0));
    try (Stream<Path> stored = Files.walk(tempDir.resolve("s3/data/lake/signed/db"))) {
      assertThat(stored.map(Path::toString).filter(p -> p.endsWith(".parquet")).count())
          .isGreaterThanOrEqualTo(2);
    }
    // No credential was vended for it; Floe signed its reads and writes.
    assertThat(sts.requests()).hasSize(vended);
    assertThat(signedRequests() - signed).isGreaterThanOrEqualTo(4);
  }

  private static long signedRequests() throws Exception {
    return ServerMetrics.answered(floe, "tables/{table}/sign", 200);
  }
}
