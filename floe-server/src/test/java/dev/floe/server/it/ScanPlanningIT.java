package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.infra.testing.ServerMetrics;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.DataFileEntries;
import dev.floe.server.it.support.PlannedTasks;
import dev.floe.server.it.support.RestClients;
import dev.floe.server.it.support.SharedFloe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Server-side scan planning's protocol through a reader's token: a large table planned in plan
 * tasks, plan tasks and plan ids bound to what they were issued for, bad requests answered 400 with
 * the ErrorModel, a past-time prefix planning the table as it was, and a manifest outside the table
 * refused before it is read.
 */
class ScanPlanningIT {
  @RegisterExtension static final SharedFloe SHARED = SharedFloe.withTokens();

  private static final Namespace NAMESPACE = Namespace.of("plans");
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()));

  private static FloeProcess floe;
  private static String writerToken;
  private static String readerToken;
  private static RESTCatalog writer;
  private static RESTCatalog server;

  @BeforeAll
  static void connect() {
    floe = SHARED.process();
    writerToken = AuthHttp.writerToken(floe, "plans-writer");
    readerToken = AuthHttp.principalWithToken(floe.uri(), floe.adminToken(), "plans-reader");
    AuthHttp.expect(
        204,
        floe.uri(),
        "PUT",
        "/management/v1/principals/plans-reader/roles/default",
        floe.adminToken(),
        "{\"role\":\"reader\"}");
    writer = RestClients.connect(floe.uri(), Map.of("token", writerToken));
    server =
        RestClients.connect(
            floe.uri(), Map.of("token", readerToken, "scan-planning-mode", "server"));
    writer.createNamespace(NAMESPACE);
  }

  @AfterAll
  static void close() throws IOException {
    writer.close();
    server.close();
  }

  @Test
  void plansATableOfTenThousandFilesInPlanTasks() throws Exception {
    TableIdentifier name = TableIdentifier.of(NAMESPACE, "big");
    Table table = writer.createTable(name, SCHEMA, PartitionSpec.unpartitioned());
    AppendFiles append = table.newFastAppend();
    for (int m = 0; m < 1000; m++) {
      append.appendManifest(manifest(table, table.location() + "/metadata/bulk-" + m + ".avro"));
    }
    append.commit();

    JsonNode plan = plan(readerToken, name, "{}").json();
    assertThat(plan.path("status").asText()).isEqualTo("completed");
    assertThat(plan.path("plan-tasks")).hasSize(32);
    assertThat(plan.has("file-scan-tasks")).isFalse();

    long tasksBefore = ServerMetrics.answered(floe, "tables/{table}/tasks", 200);
    Table served = server.loadTable(name);
    var planned = PlannedTasks.of(served.newScan());
    assertThat(planned).hasSize(10_000);
    assertThat(planned).isEqualTo(PlannedTasks.of(writer.loadTable(name).newScan()));
    assertThat(ServerMetrics.answered(floe, "tables/{table}/tasks", 200) - tasksBefore)
        .isEqualTo(32);
  }

  @Test
  void planTasksAndPlanIdsServeOnlyWhatTheyWereIssuedFor() {
    TableIdentifier name = TableIdentifier.of(NAMESPACE, "bound");
    Table table = writer.createTable(name, SCHEMA, PartitionSpec.unpartitioned());
    AppendFiles append = table.newFastAppend();
    for (int m = 0; m < 40; m++) {
      append.appendManifest(manifest(table, table.location() + "/metadata/m-" + m + ".avro"));
    }
    append.commit();
    JsonNode plan =
        plan(readerToken, name, "{\"filter\":{\"type\":\"lt\",\"term\":\"id\",\"value\":5}}")
            .json();
    String task = plan.path("plan-tasks").get(0).asText();
    String planId = plan.path("plan-id").asText();
    String taskBody = "{\"plan-task\":\"" + task + "\"}";

    assertThat(tasks(readerToken, name, taskBody).status()).isEqualTo(200);
    assertError(tasks(writerToken, name, taskBody), 403, "ForbiddenException");
    String altered = task.substring(0, task.length() - 2) + (task.endsWith("A") ? "BB" : "AA");
    assertError(
        tasks(readerToken, name, "{\"plan-task\":\"" + altered + "\"}"),
        400,
        "BadRequestException");
    TableIdentifier other = TableIdentifier.of(NAMESPACE, "bound_other");
    writer.createTable(other, SCHEMA);
    assertError(tasks(readerToken, other, taskBody), 400, "BadRequestException");

    String planPath = tablePath(name) + "/plan/" + planId;
    assertThat(AuthHttp.send(floe.uri(), "DELETE", planPath, readerToken, null).status())
        .isEqualTo(204);
    assertError(
        AuthHttp.send(floe.uri(), "GET", planPath, readerToken, null),
        404,
        "NoSuchPlanIdException");
    assertError(
        AuthHttp.send(
            floe.uri(), "DELETE", tablePath(name) + "/plan/pi1.made-up", readerToken, null),
        404,
        "NoSuchPlanIdException");

    // Dropped and created again: the new table's files are not the plan's.
    writer.dropTable(name, false);
    writer.createTable(name, SCHEMA);
    assertError(tasks(readerToken, name, taskBody), 404, "NoSuchPlanTaskException");
  }

  @Test
  void refusesBadRequestsWithTheErrorModel() {
    TableIdentifier name = TableIdentifier.of(NAMESPACE, "bad");
    Table table = writer.createTable(name, SCHEMA);
    table.newFastAppend().appendFile(DataFileEntries.of(table, "a")).commit();
    long snapshot = table.currentSnapshot().snapshotId();
    assertError(
        plan(readerToken, name, "{\"filter\":{\"type\":\"eq\",\"term\":\"nope\",\"value\":1}}"),
        400,
        "BadRequestException");
    assertError(
        plan(readerToken, name, "{\"filter\":{\"type\":\"eq\",\"term\":\"id\",\"value\":\"x\"}}"),
        400,
        "BadRequestException");
    assertError(plan(readerToken, name, "{\"select\":[\"nope\"]}"), 400, "BadRequestException");
    assertError(
        plan(readerToken, name, "{\"stats-fields\":[\"nope\"]}"), 400, "BadRequestException");
    assertError(plan(readerToken, name, "{\"snapshot-id\":42}"), 400, "BadRequestException");
    assertError(
        plan(
            readerToken,
            name,
            "{\"snapshot-id\":" + snapshot + ",\"start-snapshot-id\":" + snapshot + "}"),
        400,
        "BadRequestException");
    assertError(
        plan(readerToken, name, "{\"start-snapshot-id\":" + snapshot + ",\"end-snapshot-id\":1}"),
        400,
        "BadRequestException");
    assertError(
        plan(readerToken, name, "{\"filter\":{\"type\":\"zz\"}}"), 400, "BadRequestException");
    assertError(
        plan(
            readerToken,
            name,
            "{\"filter\":{\"type\":\"eq\",\"term\":{\"type\":\"transform\","
                + "\"transform\":\"zzz\",\"term\":\"id\"},\"value\":1}}"),
        400,
        "BadRequestException");
    assertError(plan(null, name, "{}"), 401, "NotAuthorizedException");
  }

  @Test
  void plansThePastThroughAPastTimePrefix() throws Exception {
    TableIdentifier name = TableIdentifier.of(NAMESPACE, "past");
    Table table = writer.createTable(name, SCHEMA);
    DataFile first = DataFileEntries.of(table, "a");
    table.newFastAppend().appendFile(first).commit();
    Thread.sleep(20);
    Instant then = Instant.now();
    Thread.sleep(20);
    table.newFastAppend().appendFile(DataFileEntries.of(table, "b")).commit();

    try (RESTCatalog past =
        RestClients.connect(
            floe.uri(),
            Map.of(
                "token",
                readerToken,
                "scan-planning-mode",
                "server",
                "warehouse",
                "default@" + then))) {
      assertThat(PlannedTasks.of(past.loadTable(name).newScan()))
          .containsOnlyKeys(first.location());
    }
    assertThat(PlannedTasks.of(server.loadTable(name).newScan())).hasSize(2);
  }

  @Test
  void aManifestListRewrittenAfterAPlanIsCheckedAgain() throws Exception {
    Table victim = writer.createTable(TableIdentifier.of(NAMESPACE, "swap_victim"), SCHEMA);
    victim.newFastAppend().appendFile(DataFileEntries.of(victim, "a")).commit();
    TableIdentifier name = TableIdentifier.of(NAMESPACE, "swap_thief");
    Table thief = writer.createTable(name, SCHEMA);
    thief.newFastAppend().appendFile(DataFileEntries.of(thief, "a")).commit();
    assertThat(PlannedTasks.of(server.loadTable(name).newScan())).hasSize(1);

    // The thief's manifest list, checked once, is overwritten with the victim's, then any commit
    // makes the catalog parse the table again.
    Files.copy(
        localPath(victim.currentSnapshot().manifestListLocation()),
        localPath(thief.currentSnapshot().manifestListLocation()),
        StandardCopyOption.REPLACE_EXISTING);
    thief.updateProperties().set("k", "v").commit();

    assertThatThrownBy(() -> PlannedTasks.of(server.loadTable(name).newScan()))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("outside the locations the catalog holds for the table");
  }

  @Test
  void anIncrementalPlanOverAParentCycleIsRefused() {
    TableIdentifier name = TableIdentifier.of(NAMESPACE, "cycle");
    Table table = writer.createTable(name, SCHEMA);
    long now = System.currentTimeMillis();
    String list = table.location() + "/metadata/none.avro";
    String body =
        "{\"requirements\":[],\"updates\":["
            + snapshot(5003, null, 1, now, list)
            + ","
            + snapshot(5001, 5002L, 2, now + 1, list)
            + ","
            + snapshot(5002, 5001L, 3, now + 2, list)
            + "]}";
    AuthHttp.expect(200, floe.uri(), "POST", tablePath(name), writerToken, body);

    long began = System.nanoTime();
    assertError(
        plan(readerToken, name, "{\"start-snapshot-id\":5003,\"end-snapshot-id\":5001}"),
        400,
        "BadRequestException");
    assertThat(System.nanoTime() - began).isLessThan(10_000_000_000L);
  }

  @Test
  void aLargeFilterOverManyFilesIsAnsweredInParts() {
    TableIdentifier name = TableIdentifier.of(NAMESPACE, "wide");
    Table table = writer.createTable(name, SCHEMA, PartitionSpec.unpartitioned());
    ManifestWriter<DataFile> manifest =
        ManifestFiles.write(
            2,
            table.spec(),
            table.io().newOutputFile(table.location() + "/metadata/wide.avro"),
            null);
    try (manifest) {
      for (int i = 0; i < 2000; i++) {
        manifest.add(DataFileEntries.of(table, "x"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    table.newFastAppend().appendManifest(manifest.toManifestFile()).commit();
    Object[] ids = new Object[3000];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = (long) i * 7;
    }
    Expression filter = Expressions.in("id", ids);

    AuthHttp.Response answer =
        plan(readerToken, name, "{\"filter\":" + ExpressionParser.toJson(filter) + "}");
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body().length()).isLessThan(12 * 1024 * 1024);
    JsonNode plan = answer.json();
    assertThat(plan.path("file-scan-tasks").size()).isPositive().isLessThan(2000);
    assertThat(plan.path("plan-tasks").size()).isPositive();

    assertThat(PlannedTasks.of(server.loadTable(name).newScan().filter(filter)))
        .hasSize(2000)
        .isEqualTo(PlannedTasks.of(writer.loadTable(name).newScan().filter(filter)));
    assertThat(
            PlannedTasks.followed(
                floe.uri(),
                readerToken,
                name,
                "{\"filter\":" + ExpressionParser.toJson(filter) + "}"))
        .hasSize(2000);

    // Column stats asked for many times over count once: the answer stays small.
    String stats = "\"id\",".repeat(20_000) + "\"id\"";
    AuthHttp.Response many =
        plan(
            readerToken,
            name,
            "{\"stats-fields\":["
                + stats
                + "],\"filter\":"
                + ExpressionParser.toJson(filter)
                + "}");
    assertThat(many.status()).isEqualTo(200);
    assertThat(many.body().length()).isLessThan(16 * 1024 * 1024);
    assertThat(many.json().path("plan-tasks").size()).isBetween(1, 16);
  }

  @Test
  void aPlanTaskPlansWithThePlansSchemaAfterARename() {
    TableIdentifier name = TableIdentifier.of(NAMESPACE, "renamed");
    Table table = writer.createTable(name, SCHEMA, PartitionSpec.unpartitioned());
    AppendFiles append = table.newFastAppend();
    for (int i = 0; i < 300; i++) {
      append.appendFile(
          DataFiles.builder(table.spec())
              .withPath(table.location() + "/data/f" + i + ".parquet")
              .withFileSizeInBytes(10)
              .withMetrics(
                  new Metrics(
                      10L,
                      null,
                      null,
                      null,
                      null,
                      Map.of(
                          2,
                          Conversions.toByteBuffer(Types.StringType.get(), i % 2 == 0 ? "a" : "z")),
                      Map.of(
                          2,
                          Conversions.toByteBuffer(
                              Types.StringType.get(), i % 2 == 0 ? "a" : "z"))))
              .build());
    }
    append.commit();
    Object[] ids = new Object[20_000];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = 1_000_000L + i;
    }
    Expression filter =
        Expressions.and(Expressions.equal("category", "a"), Expressions.notIn("id", ids));
    String request = "{\"filter\":" + ExpressionParser.toJson(filter) + "}";
    JsonNode plan = plan(readerToken, name, request).json();
    assertThat(plan.path("plan-tasks").size()).as("answered in parts").isPositive();
    List<String> before = PlannedTasks.followed(floe.uri(), readerToken, name, request);
    assertThat(before).hasSize(150);

    // The plan's parts, fetched after the columns changed names: still the plan's files.
    writer.loadTable(name).updateSchema().renameColumn("category", "old_category").commit();
    writer.loadTable(name).updateSchema().addColumn("category", Types.StringType.get()).commit();
    List<String> files = new ArrayList<>();
    plan.path("file-scan-tasks")
        .forEach(t -> files.add(t.path("data-file").path("file-path").asText()));
    for (JsonNode task : plan.path("plan-tasks")) {
      JsonNode answer =
          AuthHttp.expect(
                  200,
                  floe.uri(),
                  "POST",
                  tablePath(name) + "/tasks",
                  readerToken,
                  "{\"plan-task\":\"" + task.asText() + "\"}")
              .json();
      answer
          .path("file-scan-tasks")
          .forEach(t -> files.add(t.path("data-file").path("file-path").asText()));
      assertThat(answer.path("plan-tasks").size()).isZero();
    }
    assertThat(files).containsExactlyInAnyOrderElementsOf(before);
  }

  private static String snapshot(long id, Long parent, long sequence, long time, String list) {
    return "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":"
        + id
        + (parent == null ? "" : ",\"parent-snapshot-id\":" + parent)
        + ",\"sequence-number\":"
        + sequence
        + ",\"timestamp-ms\":"
        + time
        + ",\"manifest-list\":\""
        + list
        + "\",\"summary\":{\"operation\":\"append\"},\"schema-id\":0}}";
  }

  private static Path localPath(String location) {
    return Path.of(URI.create(location.replaceFirst("^file:/+", "file:///")));
  }

  @Test
  void refusesAManifestOutsideTheTable() {
    TableIdentifier victim = TableIdentifier.of(NAMESPACE, "victim");
    Table victimTable = writer.createTable(victim, SCHEMA);
    victimTable.newFastAppend().appendFile(DataFileEntries.of(victimTable, "a")).commit();

    // A manifest placed among the victim's files, which the catalog would read with its own
    // credentials: the thief's table names it.
    TableIdentifier thief = TableIdentifier.of(NAMESPACE, "thief");
    Table thiefTable = writer.createTable(thief, SCHEMA);
    String planted = victimTable.location() + "/metadata/planted.avro";
    thiefTable.newFastAppend().appendManifest(manifest(thiefTable, planted)).commit();

    assertThatThrownBy(() -> PlannedTasks.of(server.loadTable(thief).newScan()))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("outside the locations the catalog holds for the table");
  }

  /** A manifest of ten data-file entries, written by the client at {@code location}. */
  private static ManifestFile manifest(Table table, String location) {
    ManifestWriter<DataFile> writer =
        ManifestFiles.write(2, table.spec(), table.io().newOutputFile(location), null);
    try (writer) {
      for (int i = 0; i < 10; i++) {
        writer.add(DataFileEntries.of(table, "x"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toManifestFile();
  }

  private static AuthHttp.Response plan(String token, TableIdentifier name, String body) {
    return AuthHttp.send(floe.uri(), "POST", tablePath(name) + "/plan", token, body);
  }

  private static AuthHttp.Response tasks(String token, TableIdentifier name, String body) {
    return AuthHttp.send(floe.uri(), "POST", tablePath(name) + "/tasks", token, body);
  }

  private static String tablePath(TableIdentifier name) {
    return "/v1/default/namespaces/" + name.namespace() + "/tables/" + name.name();
  }

  private static void assertError(AuthHttp.Response response, int status, String type) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    JsonNode error = response.json().path("error");
    assertThat(error.path("code").asInt()).isEqualTo(status);
    assertThat(error.path("type").asText()).isEqualTo(type);
    assertThat(error.path("message").asText()).isNotBlank();
  }
}
