package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EntityEvent;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.event.NamespaceEvent;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableRenamedEvent;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.projections.replay.EventLogReader;
import dev.floe.server.Main;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.AuthHttp.Response;
import dev.floe.server.it.support.EventPaging;
import dev.floe.server.it.support.EventPaging.Paged;
import dev.floe.server.it.support.SseClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The events endpoint on the real server: over 5,000 changes paged with random page sizes and
 * filters come back exactly once, in order per object, matching {@code floe.events}, every answer
 * valid against the draft's schema; each reader sees only what it may read; a token survives a
 * restart; a tampered token is 400 and a token from before the retention 410.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EventsApiIT {
  private static final String EVENTS = "/v1/default/events";
  private static final String SCHEMA_JSON =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
          + "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static final int TABLES = 40;

  /** Multi-table transactions over every table of ev: one request, {@link #TABLES} events. */
  private static final int TRANSACTIONS = 25;

  /**
   * Single-table commits after them, which fill the log to over 5,000 changes far faster than
   * transactions (those queue behind one another on the warehouse's coordinator).
   */
  private static final int COMMITS = 4_200;

  private static final Schema RESPONSE_SCHEMA = schema("query-events-response.schema.json");

  @TempDir static Path dir;
  private static FloeProcess floe;
  private static String admin;
  private static final Map<String, String> tokens = new HashMap<>();

  @BeforeAll
  static void start() throws Exception {
    floe = new FloeProcess(dir.resolve("data"), Map.of("floe.auth", "token")).start();
    admin = floe.adminToken();
    for (String name : List.of("tess", "nate", "pia", "ada", "nobody")) {
      tokens.put(name, AuthHttp.principalWithToken(floe.uri(), admin, name));
    }
    post("/v1/default/namespaces", "{\"namespace\":[\"ev\"],\"properties\":{\"a\":\"1\"}}");
    post("/v1/default/namespaces", "{\"namespace\":[\"ev\",\"sub\"]}");
    post("/v1/default/namespaces", "{\"namespace\":[\"ev2\"]}");
    post("/v1/default/namespaces", "{\"namespace\":[\"ev3\"]}");
    for (int i = 0; i < TABLES; i++) {
      createTable("ev", "t" + i);
    }
    createTable("ev2", "u");
    createTable("ev3", "p");
    createTable("ev", "gone");
    createTable("ev", "old");
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/v1/default/tables/rename",
        admin,
        "{\"source\":{\"namespace\":[\"ev\"],\"name\":\"old\"},"
            + "\"destination\":{\"namespace\":[\"ev2\"],\"name\":\"moved\"}}");
    AuthHttp.expect(
        204, floe.uri(), "DELETE", "/v1/default/namespaces/ev/tables/gone", admin, null);
    grant("tess", "[\"ev\"],\"table\":\"t1\"");
    grant("nate", "[\"ev2\"]");
    AuthHttp.expect(
        204,
        floe.uri(),
        "PUT",
        "/management/v1/warehouses/default/namespaces/ev3/visibility",
        admin,
        "{\"visibility\":\"AUTHENTICATED_PUBLIC\"}");
    AuthHttp.expect(
        204,
        floe.uri(),
        "PUT",
        "/management/v1/principals/ada/roles/default",
        admin,
        "{\"role\":\"admin\"}");
    // Many changes quickly: transactions over every table of ev first (the first table update in
    // the log is one of them), then single-table commits. Transactions queue behind one another on
    // the warehouse's coordinator, so a few at a time (more would wait past the reply timeout on a
    // loaded machine); commits with many in flight, which the processor commits in groups, at a
    // fraction of the CPU per commit of a few at a time.
    inPool(8, TRANSACTIONS, EventsApiIT::transaction);
    inPool(64, COMMITS, n -> commit("t" + ((TRANSACTIONS + n) % TABLES), TRANSACTIONS + n));
  }

  /** Runs {@code task(0 … count-1)} on {@code threads} threads; rethrows the first failure. */
  private static void inPool(int threads, int count, IntConsumer task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int n = 0; n < count; n++) {
        int round = n;
        done.add(pool.submit(() -> task.accept(round)));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @AfterAll
  static void stop() throws InterruptedException {
    floe.close();
  }

  @Test
  @Order(1)
  void everyChangeComesBackOnceInOrderPerObjectWithRandomPagesAndFilters() {
    Map<String, CatalogEvent> log = log();
    assertThat(log.size()).isGreaterThan(5_000);
    Random random = new Random(20261202);

    List<JsonNode> all = pageAll(admin, "{}", random);
    List<String> ids = all.stream().map(e -> e.path("event-id").asText()).toList();
    assertThat(new HashSet<>(ids)).as("no event twice").hasSize(ids.size());
    assertThat(ids).containsExactlyInAnyOrderElementsOf(log.keySet());
    assertOrderPerObject(all, log);
    JsonNode transaction =
        all.stream()
            .filter(e -> e.path("operation").path("operation-type").asText().equals("update-table"))
            .findFirst()
            .orElseThrow();
    assertThat(transaction.path("request-event-count").asInt()).isEqualTo(TABLES);
    assertThat(transaction.path("actor").path("id").asText()).isNotEmpty();

    expectFiltered(
        "{\"object-types\":[\"namespace\"]}", e -> e instanceof NamespaceEvent, log, random);
    expectFiltered(
        "{\"catalog-objects-by-name\":[[\"ev\",\"t1\"]]}",
        e -> e instanceof EntityEvent t && mentions(t, "ev", "t1"),
        log,
        random);
    expectFiltered(
        "{\"operation-types\":[\"update-table\"],\"catalog-objects-by-name\":[[\"ev\"]]}",
        e -> e instanceof TableCommittedEvent c && c.identifier().namespace().level(0).equals("ev"),
        log,
        random);
    expectFiltered(
        "{\"catalog-objects-by-name\":[[\"ev2\"]]}",
        e ->
            (e instanceof NamespaceEvent n && n.namespace().level(0).equals("ev2"))
                || (e instanceof TableRenamedEvent r && r.to().namespace().level(0).equals("ev2"))
                || (e instanceof EntityEvent t
                    && !(e instanceof TableRenamedEvent)
                    && t.identifier().namespace().level(0).equals("ev2")),
        log,
        random);
    String uuid =
        all.stream()
            .filter(e -> e.path("operation").path("identifier").path("name").asText().equals("t3"))
            .findFirst()
            .orElseThrow()
            .path("operation")
            .path("table-uuid")
            .asText();
    expectFiltered(
        "{\"catalog-objects-by-uuid\":[\"" + uuid + "\"],\"object-types\":[\"table\"]}",
        e -> e instanceof EntityEvent t && mentions(t, "ev", "t3"),
        log,
        random);
  }

  @Test
  @Order(2)
  void eachReaderSeesOnlyWhatItMayReadNow() {
    Map<String, CatalogEvent> log = log();
    Random random = new Random(7);

    // ev3 is public: every authenticated principal may read it, and its changes.
    Predicate<CatalogEvent> isPublic =
        e ->
            (e instanceof NamespaceEvent n && n.namespace().level(0).equals("ev3"))
                || (e instanceof EntityEvent t
                    && t.identifier().namespace().level(0).equals("ev3"));
    List<JsonNode> tess = pageAll(tokens.get("tess"), "{}", random);
    assertThat(ids(tess))
        .containsExactlyInAnyOrderElementsOf(
            idsOf(log, isPublic.or(e -> e instanceof EntityEvent t && mentions(t, "ev", "t1"))));
    assertThat(tess.toString()).doesNotContain("\"t2\"").doesNotContain("\"moved\"");

    List<JsonNode> nate = pageAll(tokens.get("nate"), "{}", random);
    // The rename from ev.old into ev2 shows a name nate may not read: it is not shown to nate.
    assertThat(ids(nate))
        .containsExactlyInAnyOrderElementsOf(
            idsOf(
                log,
                isPublic.or(
                    e ->
                        (e instanceof NamespaceEvent n && n.namespace().level(0).equals("ev2"))
                            || (e instanceof EntityEvent t
                                && !(e instanceof TableRenamedEvent)
                                && t.identifier().namespace().level(0).equals("ev2")))));
    assertThat(nate.toString()).doesNotContain("\"old\"");

    List<JsonNode> pia = pageAll(tokens.get("pia"), "{}", random);
    assertThat(ids(pia)).containsExactlyInAnyOrderElementsOf(idsOf(log, isPublic));
    assertThat(pia).isNotEmpty();

    List<JsonNode> ada = pageAll(tokens.get("ada"), "{}", random);
    assertThat(ids(ada))
        .containsExactlyInAnyOrderElementsOf(idsOf(log, e -> e.warehouse().equals("default")));
    assertThat(ada)
        .anyMatch(
            e ->
                e.path("operation").path("operation-type").asText().equals("x-floe.change-access"));

    // With no grant at all: what is public, as for any authenticated principal.
    assertThat(ids(pageAll(tokens.get("nobody"), "{}", random)))
        .containsExactlyInAnyOrderElementsOf(ids(pia));
  }

  @Test
  @Order(5)
  void aTokenSurvivesARestartAndABadOneIsRefused() throws Exception {
    String filter = "{\"object-types\":[\"table\"]}";
    JsonNode first = page(admin, EventPaging.body(filter, 500, null));
    String token = first.path("continuation-token").asText();
    List<String> before = new ArrayList<>(ids(events(first)));
    List<String> uninterrupted = new ArrayList<>(before);
    uninterrupted.addAll(ids(drain(admin, filter, token)));

    Response otherFilters =
        AuthHttp.send(
            floe.uri(),
            "POST",
            EVENTS,
            admin,
            "{\"object-types\":[\"view\"],\"continuation-token\":\"" + token + "\"}");
    assertThat(otherFilters.status()).as(otherFilters.body()).isEqualTo(400);
    // A character inside the token: the last one may carry padding bits a decoder ignores.
    int at = token.length() / 2;
    String tampered =
        token.substring(0, at) + (token.charAt(at) == 'A' ? 'B' : 'A') + token.substring(at + 1);
    Response bad =
        AuthHttp.send(floe.uri(), "POST", EVENTS, admin, EventPaging.body(filter, 100, tampered));
    assertThat(bad.status()).as(bad.body()).isEqualTo(400);
    assertThat(bad.json().path("error").path("type").asText()).isEqualTo("BadRequestException");
    Response garbage =
        AuthHttp.send(
            floe.uri(), "POST", EVENTS, admin, "{\"continuation-token\":\"not-a-token\"}");
    assertThat(garbage.status()).isEqualTo(400);
    Response zero = AuthHttp.send(floe.uri(), "POST", EVENTS, admin, "{\"page-size\":0}");
    assertThat(zero.status()).isEqualTo(400);

    assertThat(floe.stop()).isIn(0, 143);
    floe.start();

    List<String> resumed = new ArrayList<>(before);
    resumed.addAll(ids(drain(admin, filter, token)));
    assertThat(resumed).isEqualTo(uninterrupted);
    // At the end: an empty page with a token that yields newer events later.
    JsonNode end = page(admin, EventPaging.body(filter, 100, lastToken));
    assertThat(events(end)).isEmpty();
    createTable("ev", "later");
    JsonNode newer =
        page(admin, EventPaging.body(filter, 100, end.path("continuation-token").asText()));
    assertThat(events(newer))
        .extracting(e -> e.path("operation").path("identifier").path("name").asText())
        .containsExactly("later");
  }

  @Test
  @Order(3)
  void theStreamDeliversACommitWithinASecondAndResumesAfterAnEvent() throws Exception {
    String query = "?object-types=table&catalog-objects-by-name=ev%1Ft1";
    try (SseClient live =
        new SseClient(floe.uri(), EVENTS + "/stream" + query, tokens.get("tess"), null)) {
      live.awaitOpen();
      long acked = commitTo("t2") + commitTo("t1");
      JsonNode event = live.next(Duration.ofSeconds(5));
      long received = System.nanoTime();
      assertThat(event.path("operation").path("identifier").path("name").asText()).isEqualTo("t1");
      assertThat(Duration.ofNanos(received - acked))
          .as("from the commit's acknowledgement to the stream")
          .isLessThan(Duration.ofSeconds(1));
      String resumeAfter = live.lastId();

      commitTo("t1");
      JsonNode second = live.next(Duration.ofSeconds(5));
      try (SseClient resumed =
          new SseClient(floe.uri(), EVENTS + "/stream" + query, tokens.get("tess"), resumeAfter)) {
        assertThat(resumed.next(Duration.ofSeconds(5)).path("event-id").asText())
            .as("the event after the one it resumed from")
            .isEqualTo(second.path("event-id").asText());
      }
      assertThat(live.received()).as("t2 is not tess's to read").hasSize(2);
    }
    Response bad =
        AuthHttp.send(floe.uri(), "GET", EVENTS + "/stream?object-types=function", admin, null);
    assertThat(bad.status()).isEqualTo(400);
  }

  /**
   * A stream outlives no token: once the token it was opened with is revoked, the stream ends with
   * an {@code error} event (401) at its next read, and delivers nothing more.
   */
  @Test
  @Order(3)
  void aStreamEndsWithAnErrorOnceItsTokenIsRevoked() throws Exception {
    AuthHttp.expect(
        201, floe.uri(), "POST", "/management/v1/principals", admin, "{\"name\":\"rhea\"}");
    grant("rhea", "[\"ev\"],\"table\":\"t1\"");
    JsonNode issued =
        AuthHttp.expect(
                201, floe.uri(), "POST", "/management/v1/principals/rhea/tokens", admin, "{}")
            .json();
    String query = "?object-types=table&catalog-objects-by-name=ev%1Ft1";
    try (SseClient live =
        new SseClient(
            floe.uri(), EVENTS + "/stream" + query, issued.path("token").asText(), null)) {
      live.awaitOpen();
      commitTo("t1");
      assertThat(live.next(Duration.ofSeconds(5)).has("event-id")).isTrue();

      AuthHttp.expect(
          204,
          floe.uri(),
          "DELETE",
          "/management/v1/tokens/" + issued.path("id").asText(),
          admin,
          null);
      commitTo("t1");

      // The error event's data is the error object, as for the stream's other error events.
      JsonNode ended = live.next(Duration.ofSeconds(20));
      assertThat(ended.path("code").asInt()).as("%s", live.received()).isEqualTo(401);
      assertThat(ended.path("type").asText()).isEqualTo("NotAuthorizedException");
      assertThat(live.awaitEnd(Duration.ofSeconds(5))).as("the server ended the stream").isTrue();
      assertThat(live.received()).as("nothing after the revocation").hasSize(2);
    }
  }

  @Test
  @Order(4)
  void theTailCommandReadsTheEndpointWithoutKafka() throws Exception {
    ByteArrayOutputStream history = new ByteArrayOutputStream();
    int exit =
        Main.run(
            new String[] {
              "events",
              "tail",
              "--url",
              floe.uri(),
              "--token",
              tokens.get("ada"),
              "--from-beginning",
              "--to-end",
              "--type",
              "rename-table"
            },
            new PrintStream(history, true, StandardCharsets.UTF_8),
            System.err);
    assertThat(exit).isZero();
    assertThat(history.toString(StandardCharsets.UTF_8).lines().toList())
        .singleElement()
        .satisfies(line -> assertThat(line).contains("rename-table  ev.old -> ev2.moved  by="));

    ByteArrayOutputStream live = new ByteArrayOutputStream();
    ExecutorService tail = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> following =
          tail.submit(
              () ->
                  Main.run(
                      new String[] {
                        "events",
                        "tail",
                        "--url",
                        floe.uri(),
                        "--token",
                        tokens.get("tess"),
                        "--limit",
                        "1",
                        "--timeout-ms",
                        "20000"
                      },
                      new PrintStream(live, true, StandardCharsets.UTF_8),
                      System.err));
      // The stream starts at the log's end: commit until the tail has opened and printed.
      long deadline = System.currentTimeMillis() + 20_000;
      while (!following.isDone() && System.currentTimeMillis() < deadline) {
        commitTo("t1");
        Thread.sleep(300);
      }
      assertThat(following.get()).isZero();
    } finally {
      tail.shutdownNow();
    }
    assertThat(live.toString(StandardCharsets.UTF_8))
        .contains("update-table  ev.t1  by=")
        .contains("updates=set-properties");
  }

  /** Commits a property change to ev.&lt;table&gt;; returns when it was acknowledged (nanos). */
  private static long commitTo(String table) {
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/default/namespaces/ev/tables/" + table,
        admin,
        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"at\":\""
            + System.nanoTime()
            + "\"}}]}");
    return table.equals("t1") ? System.nanoTime() : 0;
  }

  @Test
  @Order(6)
  void aTokenFromBeforeTheRetentionIsGone() throws Exception {
    String token = page(admin, "{\"page-size\":1}").path("continuation-token").asText();
    try (Admin kafka =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                FloeProcess.embeddedKafka(floe.dataDir())))) {
      Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
      kafka
          .describeTopics(List.of("floe.events"))
          .allTopicNames()
          .get()
          .get("floe.events")
          .partitions()
          .forEach(
              p -> ends.put(new TopicPartition("floe.events", p.partition()), OffsetSpec.latest()));
      Map<TopicPartition, RecordsToDelete> delete = new HashMap<>();
      kafka
          .listOffsets(ends)
          .all()
          .get()
          .forEach((tp, info) -> delete.put(tp, RecordsToDelete.beforeOffset(info.offset())));
      kafka.deleteRecords(delete).all().get();
    }

    Response gone =
        AuthHttp.send(
            floe.uri(), "POST", EVENTS, admin, "{\"continuation-token\":\"" + token + "\"}");

    assertThat(gone.status()).as(gone.body()).isEqualTo(410);
    assertThat(gone.json().path("error").path("code").asInt()).isEqualTo(410);
    assertThat(events(page(admin, "{}"))).as("what the log still holds: nothing").isEmpty();
  }

  private static String lastToken;

  private static void expectFiltered(
      String filter,
      Predicate<CatalogEvent> expected,
      Map<String, CatalogEvent> log,
      Random random) {
    List<JsonNode> served = pageAll(admin, filter, random);
    assertThat(ids(served)).as(filter).containsExactlyInAnyOrderElementsOf(idsOf(log, expected));
    assertOrderPerObject(served, log);
  }

  /** Per table or view and per namespace, the served events' sequences only grow. */
  private static void assertOrderPerObject(List<JsonNode> served, Map<String, CatalogEvent> log) {
    Map<String, Long> last = new HashMap<>();
    for (JsonNode event : served) {
      CatalogEvent data = log.get(event.path("event-id").asText());
      String object =
          data instanceof NamespaceEvent n
              ? "ns:" + n.namespace()
              : event.path("operation").path("table-uuid").asText(data.subject());
      Long previous = last.put(object, data.sequence());
      if (previous != null) {
        assertThat(data.sequence()).as("order of %s", object).isGreaterThan(previous);
      }
    }
  }

  private static boolean mentions(EntityEvent event, String namespace, String name) {
    if (event instanceof TableRenamedEvent r) {
      return r.from().toString().equals(namespace + "." + name)
          || r.to().toString().equals(namespace + "." + name);
    }
    return event.identifier().toString().equals(namespace + "." + name);
  }

  /** Pages through everything with random page sizes, each answer checked against the schema. */
  /** Pages through everything with random page sizes, each answer checked against the schema. */
  private static List<JsonNode> pageAll(String token, String filter, Random random) {
    // Mostly large pages, some tiny ones (a page of 1 still ends with its whole transaction).
    int[] size = new int[1];
    Paged paged =
        EventPaging.all(
            body -> {
              JsonNode page = page(token, body);
              // A page ends with the whole of a transaction it started.
              assertThat(events(page).size()).isLessThanOrEqualTo(size[0] + TABLES - 1);
              return page;
            },
            filter,
            null,
            () ->
                size[0] =
                    random.nextInt(8) == 0 ? 1 + random.nextInt(20) : 100 + random.nextInt(900));
    lastToken = paged.lastToken();
    return paged.events();
  }

  private static List<JsonNode> drain(String token, String filter, String continuation) {
    Paged paged = EventPaging.all(body -> page(token, body), filter, continuation, () -> 300);
    lastToken = paged.lastToken();
    return paged.events();
  }

  private static JsonNode page(String token, String body) {
    Response response = AuthHttp.expect(200, floe.uri(), "POST", EVENTS, token, body);
    JsonNode json = response.json();
    assertThat(RESPONSE_SCHEMA.validate(json)).as("the draft's schema: %s", body).isEmpty();
    return json;
  }

  private static List<JsonNode> events(JsonNode page) {
    List<JsonNode> events = new ArrayList<>();
    page.path("events").forEach(events::add);
    return events;
  }

  private static List<String> ids(List<JsonNode> events) {
    return events.stream().map(e -> e.path("event-id").asText()).toList();
  }

  private static List<String> idsOf(Map<String, CatalogEvent> log, Predicate<CatalogEvent> which) {
    return log.entrySet().stream()
        .filter(e -> e.getValue().warehouse().equals("default") && which.test(e.getValue()))
        .map(Map.Entry::getKey)
        .toList();
  }

  /** Every event of {@code floe.events}, by its id. */
  private static Map<String, CatalogEvent> log() {
    Map<String, CatalogEvent> log = new LinkedHashMap<>();
    EventLogReader.read(
        FloeProcess.embeddedKafka(floe.dataDir()),
        "floe.events",
        EventLogReader.Until.END,
        (EventEnvelope e) -> log.put(e.id(), e.data()),
        (done, total) -> {});
    // The admin is a superuser: it also sees changes to principals and tokens (warehouse *).
    return log;
  }

  private static void transaction(int round) {
    ObjectNode body = AuthHttp.JSON.createObjectNode();
    ArrayNode changes = body.putArray("table-changes");
    IntStream.range(0, TABLES)
        .forEach(
            i -> {
              ObjectNode change = changes.addObject();
              ObjectNode id = change.putObject("identifier");
              id.putArray("namespace").add("ev");
              id.put("name", "t" + i);
              change.putArray("requirements");
              ObjectNode update = change.putArray("updates").addObject();
              update.put("action", "set-properties");
              update.putObject("updates").put("round", Integer.toString(round));
            });
    AuthHttp.expect(
        204, floe.uri(), "POST", "/v1/default/transactions/commit", admin, body.toString());
  }

  private static void commit(String table, int round) {
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/default/namespaces/ev/tables/" + table,
        admin,
        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":"
            + "{\"round\":\""
            + round
            + "\"}}]}");
  }

  private static void createTable(String namespace, String name) {
    post(
        "/v1/default/namespaces/" + namespace + "/tables",
        "{\"name\":\"" + name + "\",\"schema\":" + SCHEMA_JSON + "}");
  }

  private static void grant(String principal, String target) {
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/default/grants",
        admin,
        "{\"principal\":\"" + principal + "\",\"namespace\":" + target + ",\"action\":\"read\"}");
  }

  private static void post(String path, String body) {
    AuthHttp.expect(200, floe.uri(), "POST", path, admin, body);
  }

  private static Schema schema(String file) {
    try {
      Path path = locate(Path.of("docs", "events-api", file));
      SchemaRegistry registry =
          SchemaRegistry.withDefaultDialect(
              SpecificationVersion.DRAFT_2020_12,
              builder ->
                  builder.schemaRegistryConfig(
                      SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
      return registry.getSchema(AuthHttp.JSON.readTree(Files.readString(path)));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Path locate(Path relative) {
    Path here = Path.of("").toAbsolutePath();
    while (here != null && !Files.exists(here.resolve(relative))) {
      here = here.getParent();
    }
    if (here == null) {
      throw new IllegalStateException("Not found: " + relative);
    }
    return here.resolve(relative);
  }
}
