package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.events.AuditRecord;
import dev.floe.events.event.EventEnvelope;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.Main;
import dev.floe.server.it.support.RestClients;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code floe events tail} and {@code floe audit tail} against a real server: find its embedded
 * broker from the data directory alone, print every change in each entity's order, filter, and
 * print the records' own JSON.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TailCommandIT {
  private static final Namespace DB = Namespace.of("db");
  private static final TableIdentifier T = TableIdentifier.of(DB, "t");
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  /**
   * Every tail in this class also stops when idle, so a missing record fails instead of hanging.
   */
  private static final String IDLE_MS = "5000";

  @TempDir static Path dataDir;
  private static FloeProcess floe;

  @BeforeAll
  static void makeChanges() {
    floe = new FloeProcess(dataDir).start();
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
      catalog.createNamespace(DB);
      assertThatThrownBy(() -> catalog.createNamespace(DB))
          .isInstanceOf(AlreadyExistsException.class);
      Table table = catalog.createTable(T, SCHEMA);
      table.updateSchema().addColumn("note", Types.StringType.get()).commit();
      assertThat(catalog.dropTable(T)).isTrue();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (floe != null) {
      floe.close();
    }
  }

  @Test
  void printsEveryChangeFromTheBeginningInEachEntitysOrder() {
    List<String> lines = tail("events", "--from-beginning", "--timeout-ms", "3000");

    assertThat(lines)
        .extracting(TailCommandIT::summary)
        .containsExactlyInAnyOrder(
            "create-namespace db", "create-table db.t", "update-table db.t", "drop-table db.t")
        // one table's events share a partition, so their order is the log's
        .containsSubsequence("create-table db.t", "update-table db.t", "drop-table db.t");
    assertThat(lines)
        .allMatch(l -> l.matches("\\d{4}-\\d\\d-\\d\\dT\\S+Z  [a-z-]+  \\S+  by=\\S+  req=\\S+.*"));
    String committed =
        lines.stream().filter(l -> l.contains("update-table")).findFirst().orElseThrow();
    assertThat(committed).endsWith("  updates=add-schema,set-current-schema");
  }

  @Test
  void printsTheSameLinesFromKafkaAndFromTheEventsEndpoint() {
    List<String> fromKafka = tail("events", "--from-beginning", "--namespace", "db");
    List<String> fromServer =
        tail("events", "--from-beginning", "--namespace", "db", "--url", floe.uri());

    assertThat(fromKafka).hasSize(4);
    assertThat(fromServer).containsExactlyInAnyOrderElementsOf(fromKafka);
    assertThat(tail("events", "--from-beginning", "--type", "drop-table", "--url", floe.uri()))
        .isEqualTo(tail("events", "--from-beginning", "--type", "floe.table.dropped"));
  }

  @Test
  void stopsAfterTheLimit() {
    assertThat(tail("events", "--from-beginning", "--limit", "2")).hasSize(2);
  }

  @Test
  void filtersByTableAndType() {
    assertThat(tail("events", "--from-beginning", "--table", "db.t"))
        .extracting(TailCommandIT::summary)
        .containsExactly("create-table db.t", "update-table db.t", "drop-table db.t");
    assertThat(tail("events", "--from-beginning", "--table", "db"))
        .extracting(TailCommandIT::summary)
        .containsExactly("create-namespace db");
    assertThat(
            tail("events", "--from-beginning", "--type", "floe.table.committed,floe.table.dropped"))
        .extracting(TailCommandIT::summary)
        .containsExactly("update-table db.t", "drop-table db.t");
    assertThat(tail("events", "--from-beginning", "--type", "update-table,drop-table"))
        .extracting(TailCommandIT::summary)
        .containsExactly("update-table db.t", "drop-table db.t");
    assertThat(tail("events", "--from-beginning", "--namespace", "db")).hasSize(4);
    assertThat(tail("events", "--from-beginning", "--namespace", "other")).isEmpty();
  }

  @Test
  void printsTheEnvelopesJson() throws Exception {
    List<String> lines = tail("events", "--from-beginning", "--table", "db.t", "--json");

    ObjectMapper mapper = new ObjectMapper();
    assertThat(lines).hasSize(3);
    for (String line : lines) {
      JsonNode json = mapper.readTree(line);
      assertThat(json.path("specversion").asText()).isEqualTo("1.0");
      assertThat(json.path("subject").asText()).isEqualTo("db.t");
      assertThat(EventEnvelope.fromBytes(line.getBytes(StandardCharsets.UTF_8)).subject())
          .isEqualTo("db.t");
    }
    assertThat(lines)
        .extracting(l -> mapper.readTree(l).path("type").asText())
        .containsExactly("floe.table.created", "floe.table.committed", "floe.table.dropped");
    assertThat(lines)
        .extracting(l -> mapper.readTree(l).path("data").path("sequence").asLong())
        .containsExactly(1L, 2L, 3L);
  }

  @Test
  @Order(Integer.MAX_VALUE - 1) // after the audit tails: it makes changes of its own
  void latencyMeasuresAndLeavesNothingBehind() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream printed = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int code =
        Main.run(new String[] {"latency", "--url", floe.uri(), "--count", "5"}, printed, printed);

    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(code).as(out).isZero();
    assertThat(out)
        .contains("commit (set-properties)  n=5")
        .contains("loadTable")
        .doesNotContain("note:");
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
      assertThat(catalog.listNamespaces()).noneMatch(ns -> ns.level(0).startsWith("latency_"));
    }
    HttpResponse<String> deleted =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(floe.uri() + "/management/v1/warehouses/default/deleted"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(deleted.statusCode()).isEqualTo(200);
    assertThat(deleted.body()).as("nothing kept either").doesNotContain("latency_");
  }

  @Test
  @Order(Integer.MAX_VALUE - 1)
  void replayComparesAndKeepsNoStoresUnlessAsked() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream printed = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    List<String> before = listing(dataDir);
    long tempBefore = replayTempDirs();

    int code =
        Main.run(
            new String[] {"replay", "--data-dir", dataDir.toString(), "--url", floe.uri()},
            printed,
            printed);

    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(code).as(out).isZero();
    assertThat(out)
        .contains("stores not kept (--out DIR keeps them)")
        .contains("log offsets")
        .contains("0 differ");
    assertThat(listing(dataDir)).as("nothing new in the data directory").isEqualTo(before);
    assertThat(replayTempDirs()).as("its temporary directory removed").isEqualTo(tempBefore);
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static long replayTempDirs() throws IOException {
    try (Stream<Path> entries = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return entries.filter(p -> p.getFileName().toString().startsWith("floe-replay-")).count();
    }
  }

  @Test
  @Order(Integer.MAX_VALUE) // last: it adds namespaces the other tests would see
  void followsFromTheEndByDefault() throws Exception {
    CompletableFuture<List<String>> tailing =
        CompletableFuture.supplyAsync(
            () -> tail("events", "--limit", "1", "--timeout-ms", "30000"));
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
      // The tail starts at the end it sees when it starts; keep changing until it has seen one.
      for (int i = 0; !tailing.isDone() && i < 60; i++) {
        catalog.createNamespace(Namespace.of("later_" + i));
        Thread.sleep(500);
      }
    }
    List<String> lines = tailing.get(30, TimeUnit.SECONDS);
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0)).containsPattern("  create-namespace  later_\\d+  by=");
  }

  @Test
  void tailsTheAuditRecordsOfChanges() {
    List<String> lines = tail("audit", "--from-beginning", "--timeout-ms", "3000");

    assertThat(lines).hasSizeGreaterThanOrEqualTo(5);
    assertThat(tail("audit", "--from-beginning", "--status", "409"))
        .singleElement()
        .asString()
        .containsPattern(
            "  409  POST /v1/\\S+/namespaces  -  by=anonymous  .*AlreadyExistsException: .*db");
    assertThat(tail("audit", "--from-beginning", "--table", "db.t"))
        .extracting(l -> l.split("  ")[2])
        .containsExactly(
            "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}",
            "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}");
    assertThat(tail("audit", "--from-beginning", "--principal", "nobody")).isEmpty();
    List<String> succeeded = tail("audit", "--from-beginning", "--status", "2xx", "--json");
    // The workload above succeeded at least at creating the namespace and the table.
    assertThat(succeeded).hasSizeGreaterThanOrEqualTo(2);
    for (String json : succeeded) {
      AuditRecord record = AuditRecord.fromBytes(json.getBytes(StandardCharsets.UTF_8));
      assertThat(record.status()).isBetween(200, 299);
    }
  }

  @Test
  void refusesBadArgumentsWithTheUsage() {
    for (String[] args :
        List.of(
            new String[] {"--bogus", "1"},
            new String[] {"--limit", "0"},
            new String[] {"--type", "floe.table.exploded"},
            new String[] {"--principal", "alice"},
            new String[] {"--table"})) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      assertThat(tail("events", args, bytes)).as(String.join(" ", args)).isEqualTo(2);
      assertThat(bytes.toString(StandardCharsets.UTF_8))
          .startsWith("error: ")
          .contains("see floe events tail --help");
    }
    assertThat(tail("audit", new String[] {"--status", "4x9"}, new ByteArrayOutputStream()))
        .isEqualTo(2);
  }

  @Test
  void needsABrokerToRead() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    String[] args = {"--data-dir", dataDir.resolve("nowhere").toString()};
    assertThat(tail("events", args, bytes)).isEqualTo(1);
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains("no embedded broker")
        .contains("--kafka");
  }

  /**
   * Runs a tail on the server's data directory. A tail of the history stops at the end of the log
   * as it was (--to-end), any other when idle; a tail that does not stop fails the test.
   */
  private static List<String> tail(String what, String... flags) {
    List<String> args =
        Stream.concat(Stream.of("--data-dir", floe.dataDir().toString()), Stream.of(flags))
            .toList();
    if (!args.contains("--timeout-ms")) {
      List<String> stop =
          args.contains("--from-beginning")
              ? List.of("--to-end")
              : List.of("--timeout-ms", IDLE_MS);
      args = Stream.concat(args.stream(), stop.stream()).toList();
    }
    List<String> finalArgs = args;
    return assertTimeoutPreemptively(Duration.ofSeconds(60), () -> run(what, finalArgs));
  }

  private static List<String> run(String what, List<String> args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code = tail(what, args.toArray(String[]::new), bytes);
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(code).as(out).isZero();
    return out.lines().toList();
  }

  /**
   * {@code floe <what> tail <args>} in this JVM; its output and errors both go to {@code bytes}.
   */
  private static int tail(String what, String[] args, ByteArrayOutputStream bytes) {
    PrintStream printed = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    return Main.run(
        Stream.concat(Stream.of(what, "tail"), Stream.of(args)).toArray(String[]::new),
        printed,
        printed);
  }

  /** "type subject" of a readable event line. */
  private static String summary(String line) {
    String[] fields = line.split("  ");
    return fields[1] + " " + fields[2];
  }
}
