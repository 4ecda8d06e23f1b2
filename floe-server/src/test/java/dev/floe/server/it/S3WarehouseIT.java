package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.infra.testing.LocalSts;
import dev.floe.infra.testing.S3ProxyProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.DataFileEntries;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
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
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A warehouse on a real S3 API server (S3Proxy on loopback, started here), with credential vending
 * through a local STS endpoint. The Java client is given only the catalog's URI and the warehouse:
 * the access-delegation header, endpoint, path style, region and credentials all come from Floe.
 *
 * <p>What this cannot show: S3Proxy checks signatures but not session policies, so that a vended
 * credential is refused outside its prefix is shown on the policy Floe sends (asserted exactly here
 * and evaluated in S3SessionPolicyTest), not by S3Proxy refusing a request.
 */
class S3WarehouseIT {
  private static final String KEY = "AKIAFLOETEST";
  private static final String SECRET = "floe-test-secret-key";
  private static final String ROLE = "arn:aws:iam::000000000000:role/floe-vending";
  private static final Namespace DB = Namespace.of("db");
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static S3ProxyProcess s3;
  private static LocalSts sts;
  private static FloeProcess floe;

  @BeforeAll
  static void start() throws Exception {
    // The client's own SDK setting: S3Proxy cannot verify the trailing checksums the AWS SDK sends
    // by default since 2.30. Real S3 and MinIO need no such setting.
    System.setProperty("aws.requestChecksumCalculation", "WHEN_REQUIRED");
    System.setProperty("aws.responseChecksumValidation", "WHEN_REQUIRED");
    s3 = new S3ProxyProcess(dir.resolve("s3"), KEY, SECRET).bucket("lake").bucket("archive");
    s3.start();
    sts = new LocalSts(KEY, SECRET);
    Map<String, String> props = new HashMap<>();
    storage(props, "floe.warehouse.lake.", "s3://lake/warehouse");
    props.put("floe.warehouse.lake.self-check", "probe");
    props.put("floe.warehouse.lake.metadata-exists-ttl", "PT3S");
    storage(props, "floe.storage-profile.cold.", "s3://archive/tables");
    props.put("floe.auth", "token");
    floe = new FloeProcess(dir.resolve("floe-s3"), props).start();
    admin = floe.adminToken();
  }

  private static String admin;

  private static void storage(Map<String, String> props, String prefix, String root) {
    props.putAll(s3.storage(prefix, root));
    props.put(prefix + "s3.role-arn", ROLE);
    props.put(prefix + "s3.sts-endpoint", sts.endpoint());
    props.put(prefix + "vending.enabled", "true");
    props.put(prefix + "vending.duration", "PT15M");
  }

  @AfterAll
  static void stop() throws Exception {
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

  /**
   * Only what an engine is told: the catalog and the warehouse. Floe's /v1/config asks the client
   * to send the access-delegation header for a warehouse that vends.
   */
  private static RESTCatalog client() {
    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, floe.uri());
    props.put(CatalogProperties.WAREHOUSE_LOCATION, "lake");
    props.put("token", admin);
    RESTCatalog catalog = new RESTCatalog();
    catalog.setConf(new Configuration());
    catalog.initialize("floe", props);
    return catalog;
  }

  @Test
  void javaClientWritesAndReadsDataThroughVendedCredentials() throws Exception {
    TableIdentifier id = TableIdentifier.of(DB, "events");
    try (RESTCatalog catalog = client()) {
      catalog.createNamespace(DB);
      Table table = catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned());
      assertThat(table.location()).startsWith("s3://lake/warehouse/db/events-");

      String dataPath = table.location() + "/data/rows-1.bin";
      byte[] rows = "1,alpha\n2,beta\n".getBytes(StandardCharsets.UTF_8);
      try (OutputStream out = table.io().newOutputFile(dataPath).create()) {
        out.write(rows);
      }
      DataFile file =
          DataFiles.builder(PartitionSpec.unpartitioned())
              .withPath(dataPath)
              .withFormat(FileFormat.PARQUET)
              .withFileSizeInBytes(rows.length)
              .withRecordCount(2)
              .build();
      table.newFastAppend().appendFile(file).commit();
    }

    try (RESTCatalog catalog = client()) {
      Table table = catalog.loadTable(id);
      List<String> paths = new ArrayList<>();
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        tasks.forEach(task -> paths.add(task.file().location()));
      }
      assertThat(paths).containsExactly(table.location() + "/data/rows-1.bin");
      try (InputStream in = table.io().newInputFile(paths.get(0)).newStream()) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo("1,alpha\n2,beta\n");
      }
      // Floe wrote the metadata files into the bucket (S3Proxy keeps objects as files).
      String key = table.location().substring("s3://lake/".length());
      Path metadataDir = dir.resolve("s3/data/lake").resolve(key).resolve("metadata");
      try (Stream<Path> files = Files.list(metadataDir)) {
        assertThat(files.map(p -> p.getFileName().toString()))
            .anyMatch(name -> name.startsWith("00001-") && name.endsWith(".metadata.json"));
      }
    }
  }

  @Test
  void aCreateAndALoadVendWhatStsReturnedForExactlyTheTablesPrefix() throws Exception {
    TableIdentifier id = TableIdentifier.of(DB, "scoped");
    String location;
    int before;
    try (RESTCatalog catalog = client()) {
      db(catalog);
      before = sts.requests().size();
      location = catalog.createTable(id, SCHEMA).location();
    }
    // The create asked for credentials (the client sends the header): one AssumeRole.
    assertThat(sts.requests()).hasSize(before + 1);

    JsonNode answer = get("/v1/lake/namespaces/db/tables/scoped", true);

    Map<String, String> request = sts.requests().get(before);
    String key = location.substring("s3://lake/".length());
    assertThat(request)
        .containsEntry("Action", "AssumeRole")
        .containsEntry("RoleArn", ROLE)
        .containsEntry("DurationSeconds", "900");
    assertThat(request.get("Policy"))
        .isEqualTo(
            "{\"Version\":\"2012-10-17\",\"Statement\":["
                + "{\"Sid\":\"ReadObjects\",\"Effect\":\"Allow\","
                + "\"Action\":[\"s3:GetObject\",\"s3:GetObjectVersion\"],"
                + "\"Resource\":[\"arn:aws:s3:::lake/"
                + key
                + "/*\"]},"
                + "{\"Sid\":\"WriteObjects\",\"Effect\":\"Allow\","
                + "\"Action\":[\"s3:PutObject\",\"s3:DeleteObject\",\"s3:AbortMultipartUpload\","
                + "\"s3:ListMultipartUploadParts\"],"
                + "\"Resource\":[\"arn:aws:s3:::lake/"
                + key
                + "/*\"]},"
                + "{\"Sid\":\"ListTablePrefix0\",\"Effect\":\"Allow\",\"Action\":\"s3:ListBucket\","
                + "\"Resource\":\"arn:aws:s3:::lake\","
                + "\"Condition\":{\"StringLike\":{\"s3:prefix\":[\""
                + key
                + "/*\"]}}},"
                + "{\"Sid\":\"BucketLocation\",\"Effect\":\"Allow\","
                + "\"Action\":\"s3:GetBucketLocation\",\"Resource\":[\"arn:aws:s3:::lake\"]}]}");

    JsonNode config = answer.path("config");
    String token = config.path("s3.session-token").asText();
    assertThat(token).startsWith("local-sts-session-token-");
    assertThat(config.path("s3.access-key-id").asText()).isEqualTo(KEY);
    assertThat(config.path("s3.secret-access-key").asText()).isEqualTo(SECRET);
    assertThat(config.path("s3.session-token-expires-at-ms").asLong())
        .isGreaterThan(System.currentTimeMillis());
    assertThat(config.path("s3.endpoint").asText()).isEqualTo(s3.endpoint());
    assertThat(config.path("s3.path-style-access").asText()).isEqualTo("true");
    assertThat(config.path("client.region").asText()).isEqualTo("us-east-1");
    assertThat(config.path("client.refresh-credentials-endpoint").asText())
        .isEqualTo("v1/lake/namespaces/db/tables/scoped/credentials");
    assertThat(config.path("gcs.oauth2.refresh-credentials-endpoint").asText())
        .isEqualTo("v1/lake/namespaces/db/tables/scoped/credentials");
    JsonNode credential = answer.path("storage-credentials").get(0);
    assertThat(credential.path("prefix").asText()).isEqualTo(location);
    assertThat(credential.path("config").path("s3.session-token").asText()).isEqualTo(token);

    // Cached below the expiry: the load got the create's credential, a second load too.
    int vended = sts.requests().size();
    assertThat(vended).isEqualTo(before + 1);
    assertThat(
            get("/v1/lake/namespaces/db/tables/scoped", true)
                .path("config")
                .path("s3.session-token")
                .asText())
        .isEqualTo(token);
    assertThat(sts.requests()).hasSize(vended);

    // The credentials route answers the same scope.
    JsonNode fresh = get("/v1/lake/namespaces/db/tables/scoped/credentials", false);
    assertThat(fresh.path("storage-credentials").get(0).path("prefix").asText())
        .isEqualTo(location);
    assertThat(
            fresh
                .path("storage-credentials")
                .get(0)
                .path("config")
                .path("s3.session-token")
                .asText())
        .startsWith("local-sts-session-token-");

    // Without the header: storage settings, no credentials.
    JsonNode plain = get("/v1/lake/namespaces/db/tables/scoped", false);
    assertThat(plain.path("config").path("s3.endpoint").asText()).isEqualTo(s3.endpoint());
    assertThat(plain.path("config").has("s3.access-key-id")).isFalse();
    assertThat(plain.has("storage-credentials")).isFalse();

    // No credential reaches Floe's log.
    String log = Files.readString(floe.log());
    assertThat(log).doesNotContain(SECRET).doesNotContain("local-sts-session-token-");
  }

  /** A principal that may only read the table gets credentials that may only read it. */
  @Test
  void aReaderGetsReadOnlyCredentials() throws Exception {
    TableIdentifier id = TableIdentifier.of(DB, "read_only");
    String location;
    try (RESTCatalog catalog = client()) {
      db(catalog);
      location = catalog.createTable(id, SCHEMA).location();
    }
    String reader = AuthHttp.principalWithToken(floe.uri(), admin, "s3-reader");
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/lake/grants",
        admin,
        "{\"principal\":\"s3-reader\",\"namespace\":[\"db\"],\"table\":\"read_only\","
            + "\"action\":\"read\"}");
    int before = sts.requests().size();
    JsonNode answer = get("/v1/lake/namespaces/db/tables/read_only", true, reader);
    assertThat(answer.path("storage-credentials").get(0).path("prefix").asText())
        .isEqualTo(location);
    assertThat(sts.requests()).hasSize(before + 1);
    String policy = sts.requests().get(before).get("Policy");
    String key = location.substring("s3://lake/".length());
    assertThat(policy)
        .contains("\"s3:GetObject\"")
        .contains("arn:aws:s3:::lake/" + key + "/*")
        .doesNotContain("s3:PutObject")
        .doesNotContain("s3:DeleteObject");
    // The reader may not write the table at all.
    assertThat(
            AuthHttp.send(
                    floe.uri(),
                    "POST",
                    "/v1/lake/namespaces/db/tables/read_only",
                    reader,
                    "{\"requirements\":[],\"updates\":[]}")
                .status())
        .isEqualTo(403);
  }

  /** A scan planned by the catalog comes with credentials that may only read the table. */
  @Test
  void aServerSidePlanCarriesReadOnlyCredentialsForTheTable() throws Exception {
    TableIdentifier id = TableIdentifier.of(DB, "planned");
    String location;
    try (RESTCatalog catalog = client()) {
      db(catalog);
      Table table = catalog.createTable(id, SCHEMA);
      table.newFastAppend().appendFile(DataFileEntries.of(table, "a")).commit();
      location = table.location();
    }
    int before = sts.requests().size();
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(floe.uri() + "/v1/lake/namespaces/db/tables/planned/plan"))
                    .header("Authorization", "Bearer " + admin)
                    .header("X-Iceberg-Access-Delegation", "vended-credentials")
                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode plan = JSON.readTree(response.body());
    assertThat(plan.path("file-scan-tasks")).hasSize(1);
    JsonNode credential = plan.path("storage-credentials").get(0);
    assertThat(credential.path("prefix").asText()).isEqualTo(location);
    assertThat(credential.path("config").path("s3.session-token").asText())
        .startsWith("local-sts-session-token-");
    // Read-only even for a caller who may write the table.
    assertThat(sts.requests()).hasSize(before + 1);
    String key = location.substring("s3://lake/".length());
    assertThat(sts.requests().get(before).get("Policy"))
        .contains("\"s3:GetObject\"")
        .contains("arn:aws:s3:::lake/" + key + "/*")
        .doesNotContain("s3:PutObject")
        .doesNotContain("s3:DeleteObject");
  }

  @Test
  void aStagedCreateGetsCredentialsForTheLocationItReserved() throws Exception {
    try (RESTCatalog catalog = client()) {
      db(catalog);
    }
    String body =
        "{\"name\":\"staged\",\"stage-create\":true,\"schema\":{\"type\":\"struct\","
            + "\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,"
            + "\"type\":\"long\"}]}}";
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(floe.uri() + "/v1/lake/namespaces/db/tables"))
                    .header("Content-Type", "application/json")
                    .header("X-Iceberg-Access-Delegation", "vended-credentials")
                    .header("Authorization", "Bearer " + admin)
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode answer = JSON.readTree(response.body());
    String location = answer.path("metadata").path("location").asText();
    assertThat(location).startsWith("s3://lake/warehouse/db/staged-");
    assertThat(answer.path("storage-credentials").get(0).path("prefix").asText())
        .isEqualTo(location);
    assertThat(sts.requests().get(sts.requests().size() - 1).get("Policy"))
        .contains("arn:aws:s3:::lake/" + location.substring("s3://lake/".length()) + "/*");
  }

  @Test
  void theStartUpSelfCheckProbedTheWarehouse() throws Exception {
    assertThat(Files.readString(floe.log()))
        .contains("Storage self-check of lake (s3://lake/warehouse) passed");
  }

  /**
   * S3Proxy does not evaluate session policies, so the full self-check, which requires a vended
   * credential to be refused outside its prefix, stops the start there, with the reason.
   */
  @Test
  void theFullSelfCheckRefusesAStoreThatDoesNotConfineCredentials() throws Exception {
    Map<String, String> props = new HashMap<>();
    storage(props, "floe.warehouse.lake.", "s3://lake/warehouse");
    props.put("floe.warehouse.lake.self-check", "full");
    String log;
    try (FloeProcess full = new FloeProcess(dir.resolve("floe-s3-full"), props)) {
      Assertions.assertThatThrownBy(full::start).hasMessageContaining("exited with");
      log = Files.readString(full.log());
    }
    // One line for the operator: what failed (which storage, which check) and what to do.
    assertThat(log)
        .contains(
            "error: floe serve failed: storage self-check of lake (s3://lake/warehouse) failed")
        .contains("does not enforce session policies")
        .contains("use self-check=probe there")
        .doesNotContain("\tat ")
        .doesNotContain(SECRET)
        .doesNotContain("local-sts-session-token-");
  }

  @Test
  void aNamespaceBoundToAStorageProfilePlacesItsTablesInThatBucket() throws Exception {
    Namespace cold = Namespace.of("cold_ns");
    try (RESTCatalog catalog = client()) {
      catalog.createNamespace(cold, new HashMap<>(Map.of("floe.storage-profile", "cold")));
      Table table = catalog.createTable(TableIdentifier.of(cold, "history"), SCHEMA);
      // Inside a storage profile, each warehouse has a directory of its own.
      assertThat(table.location()).startsWith("s3://archive/tables/lake/cold_ns/history-");
      table.updateProperties().set("k", "v").commit();
      assertThat(catalog.loadTable(TableIdentifier.of(cold, "history")).properties())
          .containsEntry("k", "v");

      // A table may bind a profile too; an unknown profile is refused.
      Table single =
          catalog
              .buildTable(TableIdentifier.of(db(catalog), "single"), SCHEMA)
              .withProperty("floe.storage-profile", "cold")
              .create();
      assertThat(single.location()).startsWith("s3://archive/tables/lake/db/single-");
      Assertions.assertThatThrownBy(
              () ->
                  catalog.createNamespace(
                      Namespace.of("nope"),
                      new HashMap<>(Map.of("floe.storage-profile", "missing"))))
          .isInstanceOf(BadRequestException.class)
          .hasMessageContaining("Storage profile does not exist: missing");
      // Inside the bound namespace, a location in the warehouse's bucket is outside its storage.
      Assertions.assertThatThrownBy(
              () ->
                  catalog
                      .buildTable(TableIdentifier.of(cold, "escape"), SCHEMA)
                      .withLocation("s3://lake/warehouse/escape")
                      .create())
          .isInstanceOf(BadRequestException.class)
          .hasMessageContaining("outside the namespace's storage area");
    }
  }

  private static Namespace db(RESTCatalog catalog) {
    if (!catalog.namespaceExists(DB)) {
      catalog.createNamespace(DB);
    }
    return DB;
  }

  /**
   * With a second instance on the same cluster, a vended load answered by the instance that holds
   * the table may need the directory's check from the other one: every load still vends.
   */
  @Test
  void vendedLoadsWorkWhicheverInstanceHoldsTheTableAndTheDirectory() throws Exception {
    Map<String, String> props = new HashMap<>();
    storage(props, "floe.warehouse.lake.", "s3://lake/warehouse");
    props.put("floe.auth", "token");
    props.put("floe.kafka.bootstrap-servers", FloeProcess.embeddedKafka(dir.resolve("floe-s3")));
    List<String> names = new ArrayList<>();
    try (RESTCatalog catalog = client()) {
      db(catalog);
      for (int i = 0; i < 8; i++) {
        names.add("spread_" + i);
        catalog.createTable(TableIdentifier.of(DB, "spread_" + i), SCHEMA);
      }
    }
    try (FloeProcess second = new FloeProcess(dir.resolve("floe-s3-second"), props).start()) {
      Set<String> servedBy = new HashSet<>();
      for (FloeProcess instance : List.of(floe, second)) {
        for (String name : names) {
          HttpResponse<String> response =
              HttpClient.newHttpClient()
                  .send(
                      HttpRequest.newBuilder(
                              URI.create(instance.uri() + "/v1/lake/namespaces/db/tables/" + name))
                          .header("Authorization", "Bearer " + admin)
                          .header("X-Iceberg-Access-Delegation", "vended-credentials")
                          .build(),
                      HttpResponse.BodyHandlers.ofString());
          assertThat(response.statusCode()).as(name + ": " + response.body()).isEqualTo(200);
          assertThat(JSON.readTree(response.body()).path("storage-credentials").size())
              .as(name)
              .isEqualTo(1);
          response.headers().firstValue("X-Floe-Served-By").ifPresent(servedBy::add);
        }
      }
      // Both instances hold some of the tables: both kinds of answer were checked.
      assertThat(servedBy).hasSize(2);
    }
  }

  @Test
  void aTableCannotOverlapAnother() throws Exception {
    try (RESTCatalog catalog = client()) {
      Namespace ns = db(catalog);
      Table t = catalog.createTable(TableIdentifier.of(ns, "owner"), SCHEMA);
      Assertions.assertThatThrownBy(
              () ->
                  catalog
                      .buildTable(TableIdentifier.of(ns, "inside"), SCHEMA)
                      .withLocation(t.location() + "/nested")
                      .create())
          .isInstanceOf(BadRequestException.class)
          .hasMessageContaining("overlaps");
    }
  }

  /**
   * On object storage a load trusts for {@code metadata-exists-ttl} (3 s here, 10 s by default)
   * that a metadata file the instance wrote or found is still there, instead of asking S3 on every
   * load; then it asks again, and a file deleted behind its back answers 404.
   */
  @Test
  void aLoadTrustsASeenMetadataFileForItsTtlThenAsksAgain() throws Exception {
    TableIdentifier id = TableIdentifier.of(DB, "trusted");
    String metadata;
    try (RESTCatalog catalog = client()) {
      db(catalog);
      metadata =
          ((HasTableOperations) catalog.createTable(id, SCHEMA))
              .operations()
              .current()
              .metadataFileLocation();
    }
    String path = "/v1/lake/namespaces/db/tables/trusted";
    assertThat(status(path)).isEqualTo(200);
    Files.delete(dir.resolve("s3/data/lake").resolve(metadata.substring("s3://lake/".length())));
    assertThat(status(path)).as("seen less than 3 s ago: not asked").isEqualTo(200);

    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    int answer = 200;
    while (answer == 200 && System.nanoTime() < deadline) {
      Thread.sleep(200);
      answer = status(path);
    }
    assertThat(answer).as("asked again once the ttl passed").isEqualTo(404);
  }

  private static int status(String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(floe.uri() + path))
            .header("Authorization", "Bearer " + admin)
            .GET()
            .build();
    return HttpClient.newHttpClient()
        .send(request, HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static JsonNode get(String path, boolean vend) throws Exception {
    return get(path, vend, admin);
  }

  private static JsonNode get(String path, boolean vend, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(floe.uri() + path))
            .header("Authorization", "Bearer " + token)
            .GET();
    if (vend) {
      request.header("X-Iceberg-Access-Delegation", "vended-credentials");
    }
    HttpResponse<String> response =
        HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }
}
