package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.infra.testing.S3ProxyProcess;
import dev.floe.infra.testing.ServerMetrics;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.DataAccessCounts;
import dev.floe.server.it.support.FileHashes;
import dev.floe.server.it.support.SignRequests;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Remote signing against a real S3 API server that checks SigV4 signatures (S3Proxy): Iceberg's
 * {@code S3FileIO}, through the Java {@code RESTCatalog} with a writer's token and no S3
 * credentials of its own, creates a table, writes, lists, reads and deletes its files (one of them
 * by multipart upload, several by one batch delete); and every request that reaches outside the
 * table, or writes with a reader's token, is refused with nothing signed and nothing changed in the
 * bucket.
 */
class RemoteSigningIT {
  private static final String KEY = "AKIAFLOESIGN";
  private static final String SECRET = "floe-signing-secret";
  private static final Namespace DB = Namespace.of("db");
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static S3ProxyProcess s3;
  private static FloeProcess floe;
  private static String writer;
  private static String reader;
  private static SignRequests signing;

  @BeforeAll
  static void start() throws Exception {
    // S3Proxy cannot verify the trailing checksums the AWS SDK sends by default since 2.30.
    System.setProperty("aws.requestChecksumCalculation", "WHEN_REQUIRED");
    System.setProperty("aws.responseChecksumValidation", "WHEN_REQUIRED");
    s3 = new S3ProxyProcess(dir.resolve("s3"), KEY, SECRET).bucket("lake").bucket("archive");
    s3.start();
    Map<String, String> props = new HashMap<>();
    props.putAll(s3.storage("floe.warehouse.lake.", "s3://lake/warehouse"));
    props.put("floe.warehouse.lake.remote-signing.enabled", "true");
    props.put("floe.auth", "token");
    floe = new FloeProcess(dir.resolve("floe"), props).start();
    signing = new SignRequests(floe.uri() + "/v1/lake/namespaces/db/tables/");
    writer = principal("wanda", "writer");
    reader = principal("rita", "reader");
  }

  private static String principal(String name, String role) {
    String token = AuthHttp.principalWithToken(floe.uri(), floe.adminToken(), name);
    AuthHttp.expect(
        204,
        floe.uri(),
        "PUT",
        "/management/v1/principals/" + name + "/roles/lake",
        floe.adminToken(),
        "{\"role\":\"" + role + "\"}");
    return token;
  }

  @AfterAll
  static void stop() throws Exception {
    if (floe != null) {
      floe.close();
    }
    if (s3 != null) {
      s3.close();
    }
  }

  /** The catalog, the warehouse and a token: no S3 credentials, endpoint or region. */
  private static RESTCatalog client(String token) {
    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, floe.uri());
    props.put(CatalogProperties.WAREHOUSE_LOCATION, "lake");
    props.put("token", token);
    props.put("s3.multipart.part-size-bytes", String.valueOf(5 * 1024 * 1024));
    RESTCatalog catalog = new RESTCatalog();
    catalog.setConf(new Configuration());
    catalog.initialize("floe", props);
    return catalog;
  }

  @Test
  void s3FileIoWritesListsReadsAndDeletesThroughSignedRequests() throws Exception {
    TableIdentifier id = TableIdentifier.of(DB, "signed");
    String created = table("signed");
    long signedBefore = ServerMetrics.answered(floe, "tables/{table}/sign", 200);
    try (RESTCatalog catalog = client(writer)) {
      Table table = catalog.loadTable(id);
      assertThat(table.location()).isEqualTo(created);
      assertThat(table.io().properties())
          .containsEntry("s3.remote-signing-enabled", "true")
          .doesNotContainKeys("s3.access-key-id", "s3.secret-access-key");

      String small = table.location() + "/data/rows-1.bin";
      byte[] rows = "1\n2\n3\n".getBytes(StandardCharsets.UTF_8);
      write(table, small, rows);
      // Over the part size: a multipart upload (create, parts, complete), every step signed.
      String large = table.location() + "/data/large.bin";
      byte[] big = new byte[12 * 1024 * 1024 + 17];
      new Random(7).nextBytes(big);
      write(table, large, big);
      table.newFastAppend().appendFile(dataFile(small, rows.length)).commit();

      assertThat(objectBytes(table.location(), "data/large.bin")).isEqualTo(big);
      List<String> listed = new ArrayList<>();
      for (FileInfo file :
          ((SupportsPrefixOperations) table.io()).listPrefix(table.location() + "/data/")) {
        listed.add(file.location());
      }
      assertThat(listed).containsExactlyInAnyOrder(small, large);
    }

    try (RESTCatalog catalog = client(writer)) {
      Table table = catalog.loadTable(id);
      List<String> planned = new ArrayList<>();
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        tasks.forEach(task -> planned.add(task.file().location()));
      }
      String small = table.location() + "/data/rows-1.bin";
      assertThat(planned).containsExactly(small);
      try (InputStream in = table.io().newInputFile(small).newStream()) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("1\n2\n3\n");
      }
      try (InputStream in =
          table.io().newInputFile(table.location() + "/data/large.bin").newStream()) {
        assertThat(in.readAllBytes()).hasSize(12 * 1024 * 1024 + 17);
      }

      table.io().deleteFile(table.location() + "/data/large.bin");
      assertThat(Files.exists(objectPath(table.location(), "data/large.bin"))).isFalse();
      List<String> extra = List.of(table.location() + "/data/x-1", table.location() + "/data/x-2");
      for (String path : extra) {
        write(table, path, new byte[] {1});
      }
      ((SupportsBulkOperations) table.io()).deleteFiles(extra);
      assertThat(Files.exists(objectPath(table.location(), "data/x-1"))).isFalse();
      assertThat(Files.exists(objectPath(table.location(), "data/x-2"))).isFalse();
      assertThat(Files.exists(objectPath(table.location(), "data/rows-1.bin"))).isTrue();
    }
    // Each S3 request above went through the sign route: puts, the multipart upload's create,
    // parts and complete, the listing, the reads, a delete and the batch delete.
    assertThat(ServerMetrics.answered(floe, "tables/{table}/sign", 200) - signedBefore)
        .isGreaterThanOrEqualTo(12);
  }

  @Test
  void aRegisteredTableIsAnsweredWithTheSignerConfiguration() throws Exception {
    table("kept");
    TableIdentifier id = TableIdentifier.of(DB, "kept");
    try (RESTCatalog catalog = client(writer)) {
      String metadata =
          ((HasTableOperations) catalog.loadTable(id))
              .operations()
              .current()
              .metadataFileLocation();
      catalog.dropTable(id, false);
      // Registered again under its own name (the dropped table's files are taken over).
      Table registered = catalog.registerTable(id, metadata);
      assertThat(registered.io().properties()).containsEntry("s3.remote-signing-enabled", "true");
      write(registered, registered.location() + "/data/after-register.bin", new byte[] {7});
      assertThat(objectBytes(registered.location(), "data/after-register.bin")).containsExactly(7);
    }
  }

  @Test
  void aReaderGetsReadsSignedAndWritesRefused() throws Exception {
    String location = table("readable");
    String object = objectUri(location, "data/f.bin");
    Files.createDirectories(objectPath(location, "data"));
    Files.writeString(objectPath(location, "data/f.bin"), "hello");

    HttpResponse<String> signed = signing.sign("readable", reader, "GET", object, null);
    assertThat(signed.statusCode()).as(signed.body()).isEqualTo(200);
    assertThat(signed.headers().firstValue("Cache-Control")).contains("private");
    JsonNode answer = JSON.readTree(signed.body());
    assertThat(answer.path("uri").asText()).isEqualTo(object);
    assertThat(answer.path("headers").path("Authorization").get(0).asText())
        .startsWith("AWS4-HMAC-SHA256 Credential=" + KEY + "/");
    // The signature holds: S3Proxy answers the signed GET with the object.
    assertThat(SignRequests.send("GET", object, answer.path("headers"))).isEqualTo("hello");

    for (String method : List.of("PUT", "DELETE", "POST")) {
      refused(signing.sign("readable", reader, method, object, null), 403);
    }
  }

  @Test
  void requestsReachingOutsideTheTableAreRefusedAndNothingIsSigned() throws Exception {
    String location = table("mine");
    String other = table("theirs");
    String key = location.substring("s3://lake/".length());
    String otherKey = other.substring("s3://lake/".length());
    String base = s3.endpoint() + "/lake/";
    String hostless = s3.endpoint().replace("http://", "");
    Map<String, String> before = FileHashes.of(dir.resolve("s3/data"));
    List<String> uris =
        List.of(
            base + otherKey + "/data/f.parquet", // another table of the same namespace
            base + key + "/../" + otherKey.substring(otherKey.lastIndexOf('/') + 1) + "/f",
            base + key + "/%2E%2E/x/f", // climbing out, encoded
            base + key + "%2F..%2Fx/f", // encoded separators
            s3.endpoint() + "/archive/" + key + "/f", // another bucket, path style
            "http://archive." + hostless + "/" + key + "/f", // another bucket, virtual host
            "http://localhost:1/lake/" + key + "/f", // another host
            base + key + "/f?X-Amz-Signature=00&X-Amz-Credential=x", // presigned
            base + key, // the location's own name, beside its files
            s3.endpoint() + "/lake?list-type=2&prefix=" + key, // would list siblings too
            s3.endpoint() + "/lake?list-type=2&prefix=warehouse/db/");
    for (String uri : uris) {
      for (String method : List.of("GET", "PUT", "DELETE")) {
        if (uri.contains("list-type") && !method.equals("GET")) {
          continue;
        }
        refused(signing.sign("mine", writer, method, uri, null), 403);
      }
    }
    // A copy into the table from another table.
    refused(
        signing.sign(
            "mine",
            writer,
            "PUT",
            base + key + "/data/copy.bin",
            null,
            Map.of("x-amz-copy-source", List.of("lake/" + otherKey + "/data/f.bin"))),
        403);
    // A batch delete that names one key of another table among its own.
    String foreign =
        "<Delete><Object><Key>"
            + key
            + "/data/a</Key></Object><Object><Key>"
            + otherKey
            + "/data/b</Key></Object></Delete>";
    refused(signing.sign("mine", writer, "POST", s3.endpoint() + "/lake?delete", foreign), 403);
    // No table of that name; a provider or a region the storage is not.
    refused(signing.sign("nosuch", writer, "GET", base + key + "/f", null), 404);
    refused(signing.signAs("mine", writer, "GET", base + key + "/f", "gcs", "us-east-1"), 400);
    refused(signing.signAs("mine", writer, "GET", base + key + "/f", "s3", "eu-west-1"), 400);

    assertThat(FileHashes.of(dir.resolve("s3/data"))).isEqualTo(before);
  }

  @Test
  void signedAndRefusedRequestsAreCountedPerPrincipalTableAndMinute() throws Exception {
    String location = table("counted");
    String object = objectUri(location, "data/f.bin");
    for (int i = 0; i < 2; i++) {
      assertThat(signing.sign("counted", reader, "GET", object, null).statusCode()).isEqualTo(200);
    }
    refused(signing.sign("counted", writer, "PUT", s3.endpoint() + "/archive/x/f", null), 403);
    // A minute's counts are written once the minute is over: `floe audit tail --data-access`.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    long[] reads;
    long[] writes;
    do {
      Thread.sleep(2_000);
      List<String> lines = DataAccessCounts.lines(floe.dataDir());
      reads = DataAccessCounts.sums(lines, "lake.db.counted  read  by=rita");
      writes = DataAccessCounts.sums(lines, "lake.db.counted  write  by=wanda");
    } while ((reads[0] < 2 || writes[1] < 1) && System.nanoTime() < deadline);
    assertThat(reads).containsExactly(2, 0);
    assertThat(writes).containsExactly(0, 1);
    // The same counts through the management API (the console's Audit page), for the admin.
    JsonNode records =
        AuthHttp.expect(
                200,
                floe.uri(),
                "GET",
                "/management/v1/warehouses/lake/data-access?table=db.counted&principal=rita",
                floe.adminToken(),
                null)
            .json()
            .path("records");
    long signedByRita = 0;
    for (JsonNode record : records) {
      assertThat(record.path("operation").asText()).isEqualTo("read");
      signedByRita += record.path("signed").asLong();
    }
    assertThat(signedByRita).isEqualTo(2);
    assertThat(
            AuthHttp.send(
                    floe.uri(), "GET", "/management/v1/warehouses/lake/data-access", reader, null)
                .status())
        .isEqualTo(403);
  }

  private static void refused(HttpResponse<String> response, int status) throws IOException {
    SignRequests.assertRefused(response, status, SECRET);
  }

  private static synchronized String table(String name) {
    try (RESTCatalog catalog = client(writer)) {
      if (!catalog.namespaceExists(DB)) {
        catalog.createNamespace(DB);
      }
      return catalog.createTable(TableIdentifier.of(DB, name), SCHEMA).location();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void write(Table table, String path, byte[] bytes) throws IOException {
    try (OutputStream out = table.io().newOutputFile(path).createOrOverwrite()) {
      out.write(bytes);
    }
  }

  private static DataFile dataFile(String path, long size) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(path)
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(size)
        .withRecordCount(3)
        .build();
  }

  private static String objectUri(String location, String relative) {
    return s3.endpoint() + "/lake/" + location.substring("s3://lake/".length()) + "/" + relative;
  }

  /** S3Proxy keeps each object as a file under its bucket's directory. */
  private static Path objectPath(String location, String relative) {
    return dir.resolve("s3/data/lake")
        .resolve(location.substring("s3://lake/".length()))
        .resolve(relative);
  }

  private static byte[] objectBytes(String location, String relative) throws IOException {
    return Files.readAllBytes(objectPath(location, relative));
  }
}
