package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.client.Uuid7;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.RestClients;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.BaseTransaction;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableCommit;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CommitTransactionRequestParser;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/{prefix}/transactions/commit} against a started Floe, through Iceberg's Java
 * client: all tables or none, also when the process dies at each step of the protocol, and a serial
 * order consistent with every acknowledgement when transactions and single commits race.
 */
class MultiTableTransactionIT {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final String OP = "floe-test-op";

  @TempDir static Path sharedDir;
  private static FloeProcess shared;

  @TempDir Path dataDir;

  @BeforeAll
  static void start() {
    shared = new FloeProcess(sharedDir).start();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    shared.close();
  }

  @Test
  void appliesEveryTableAndRecordsTheirEventsTogether() throws Exception {
    FloeProcess floe = shared;
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
      List<TableIdentifier> tables =
          createTables(catalog, Namespace.of("together"), "orders", "customers", "payments");

      catalog.commitTransaction(appendsTo(catalog, tables, "op-1"));

      for (TableIdentifier id : tables) {
        assertThat(ops(catalog.loadTable(id))).as("%s", id).containsExactly("op-1");
      }
      Map<String, List<TableCommittedEvent>> byCommand = committedEvents(sharedDir, 3);
      List<TableCommittedEvent> transaction =
          byCommand.values().stream().filter(events -> events.size() == 3).findFirst().orElse(null);
      assertThat(transaction)
          .as("one command id carries a committed event for each of the three tables")
          .isNotNull();
      assertThat(transaction)
          .extracting(TableCommittedEvent::identifier)
          .containsExactlyInAnyOrderElementsOf(tables);
    }
  }

  @Test
  void oneFailedRequirementAppliesNothing() throws Exception {
    try (RESTCatalog catalog = RestClients.connect(shared.uri(), Map.of())) {
      List<TableIdentifier> tables = createTables(catalog, Namespace.of("txn"), "a", "b");
      List<TableCommit> stale = appendsTo(catalog, tables, "stale");
      catalog.loadTable(tables.get(1)).newFastAppend().appendFile(file("moved")).commit();
      String aBefore = location(catalog, tables.get(0));
      String bBefore = location(catalog, tables.get(1));

      assertThatThrownBy(() -> catalog.commitTransaction(stale))
          .isInstanceOf(CommitFailedException.class)
          .hasMessageContaining("Table txn.b: Requirement failed");

      assertThat(location(catalog, tables.get(0))).isEqualTo(aBefore);
      assertThat(location(catalog, tables.get(1))).isEqualTo(bBefore);
      assertThat(ops(catalog.loadTable(tables.get(0)))).isEmpty();
      assertThat(ops(catalog.loadTable(tables.get(1)))).isEmpty();
    }
  }

  @Test
  void refusesMalformedTransactionsWithTheErrorModel() throws Exception {
    FloeProcess floe = shared;
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
      List<TableIdentifier> tables = createTables(catalog, Namespace.of("malformed"), "a");
      String url = floe.uri() + "/v1/default/transactions/commit";
      String onA =
          "{\"identifier\":{\"namespace\":[\"malformed\"],\"name\":\"a\"},\"requirements\":[],"
              + "\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}]}";
      String onMissing = onA.replace("\"name\":\"a\"", "\"name\":\"missing\"");
      String noIdentifier = "{\"requirements\":[],\"updates\":[]}";

      assertThat(post(url, "{\"table-changes\":[]}").statusCode()).isEqualTo(400);
      assertThat(post(url, "{\"table-changes\":[" + onA + "," + onA + "]}").statusCode())
          .isEqualTo(400);
      assertThat(post(url, "{\"table-changes\":[" + noIdentifier + "]}").statusCode())
          .isEqualTo(400);
      HttpResponse<String> missing =
          post(url, "{\"table-changes\":[" + onA + "," + onMissing + "]}");
      assertThat(missing.statusCode()).isEqualTo(404);
      assertThat(missing.body()).contains("\"type\":\"NoSuchTableException\"");
      assertThat(catalog.loadTable(tables.get(0)).properties()).doesNotContainKey("k");

      assertThat(post(url, "{\"table-changes\":[" + onA + "]}").statusCode()).isEqualTo(204);
      assertThat(catalog.loadTable(tables.get(0)).properties()).containsEntry("k", "v");
    }
  }

  /**
   * A keyed transaction sent twice (a client that lost the first answer) is answered twice with 204
   * and applied once: without the key, the second would fail its assert-ref-snapshot-id.
   */
  @Test
  void aKeyedTransactionSentTwiceIsAppliedOnce() throws Exception {
    try (RESTCatalog catalog = RestClients.connect(shared.uri(), Map.of())) {
      List<TableIdentifier> tables = createTables(catalog, Namespace.of("keyed"), "a", "b");
      String body = transactionJson(appendsTo(catalog, tables, "keyed-op"));
      String key = Uuid7.next().toString();
      String url = shared.uri() + "/v1/default/transactions/commit";

      HttpResponse<String> first = post(url, body, key);
      HttpResponse<String> second = post(url, body, key);
      HttpResponse<String> unkeyed = post(url, body, null);

      assertThat(first.statusCode()).isEqualTo(204);
      assertThat(second.statusCode()).isEqualTo(204);
      assertThat(unkeyed.statusCode()).as("the same change without the key").isEqualTo(409);
      for (TableIdentifier id : tables) {
        assertThat(opsInOrder(catalog.loadTable(id))).containsExactly("keyed-op");
      }
    }
  }

  /**
   * The process halts just before it decides each kind of record of the protocol in turn (the
   * transaction command, a table's prepare, a vote, a table's commit step). After each restart the
   * transaction is found applied to every table: what reached the log is finished, never half. The
   * points go from the last step to the first, so the recovery of one transaction never crosses the
   * next point.
   */
  @Test
  void aCrashAtEachStepLeavesEveryTableOrNone() throws Exception {
    List<String> points =
        List.of(
            "ResolvePreparedStep",
            "TransactionVoteStep",
            "PrepareTableStep",
            "CommitTransactionCommand");
    List<TableIdentifier> tables = null;
    List<String> outcomes = new ArrayList<>();
    List<Integer> statuses = new ArrayList<>();
    FloeProcess floe = null;
    try {
      for (int i = 0; i <= points.size(); i++) {
        Map<String, String> props = new HashMap<>();
        if (i < points.size()) {
          props.put("floe.testing.halt-before", points.get(i));
        }
        floe = new FloeProcess(dataDir, props).start();
        try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
          if (i == 0) {
            // Creating them sends none of the records a point halts before.
            tables = createTables(catalog, Namespace.of("crash"), "x", "y");
          }
          if (i > 0) {
            String op = "crash-" + points.get(i - 1);
            long recovering = System.nanoTime();
            awaitAllOrNone(catalog, tables, op);
            outcomes.add(
                String.format(
                    "%s: every table, %.1f s after the restart answered",
                    points.get(i - 1), (System.nanoTime() - recovering) / 1e9));
          }
          if (i == points.size()) {
            break;
          }
          String op = "crash-" + points.get(i);
          String body = transactionJson(appendsTo(catalog, tables, op));
          int status;
          try {
            status = post(floe.uri() + "/v1/default/transactions/commit", body).statusCode();
          } catch (IOException e) {
            status = -1; // the process died under the request
          }
          awaitExit(floe);
          statuses.add(status);
          outcomes.add(points.get(i) + ": halted, client saw " + status);
        }
        floe.kill();
      }
    } finally {
      if (floe != null) {
        floe.close();
      }
    }
    System.out.println("Crash points: " + outcomes);
    // A client that hears 4xx deletes the files it wrote: no crash may answer one for a
    // transaction that then applies (every one did, above).
    assertThat(statuses).hasSize(points.size()).noneMatch(status -> status >= 400 && status < 500);
  }

  /**
   * Writers race multi-table transactions (each on two of four tables) against single-table
   * appends, retrying on 409; a reader loads pairs of tables meanwhile. Every acknowledged append
   * is present exactly once, every refused one absent, a transaction is on all its tables or none,
   * no read sees a transaction on one table and not on the other read after it, and the order of
   * snapshots across all tables is a serial order (the precedence graph has no cycle).
   */
  @Test
  void racingTransactionsAndSingleCommitsFormASerialOrder() throws Exception {
    FloeProcess floe = shared;
    try (RESTCatalog setup = RestClients.connect(floe.uri(), Map.of())) {
      List<TableIdentifier> tables =
          createTables(setup, Namespace.of("race"), "t0", "t1", "t2", "t3");
      Map<String, Set<TableIdentifier>> acknowledged = new ConcurrentHashMap<>();
      Map<String, Set<TableIdentifier>> refused = new ConcurrentHashMap<>();
      List<String> partialReads = Collections.synchronizedList(new ArrayList<>());
      AtomicBoolean writing = new AtomicBoolean(true);
      int writers = 4;
      int opsPerWriter = 10;
      ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
      List<Future<?>> work = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        work.add(
            pool.submit(
                () -> {
                  try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
                    for (int n = 0; n < opsPerWriter; n++) {
                      String op = "w" + writer + "-" + n;
                      ThreadLocalRandom random = ThreadLocalRandom.current();
                      if (random.nextBoolean()) {
                        TableIdentifier table = tables.get(random.nextInt(tables.size()));
                        AppendFiles append =
                            catalog.loadTable(table).newFastAppend().appendFile(file(op));
                        append.set(OP, op);
                        append.commit(); // Iceberg's client refreshes and retries on 409
                        acknowledged.put(op, Set.of(table));
                      } else {
                        int first = random.nextInt(tables.size());
                        int second =
                            (first + 1 + random.nextInt(tables.size() - 1)) % tables.size();
                        List<TableIdentifier> pair = List.of(tables.get(first), tables.get(second));
                        if (commitWithRetries(catalog, pair, op, 30)) {
                          acknowledged.put(op, Set.copyOf(pair));
                        } else {
                          refused.put(op, Set.copyOf(pair));
                        }
                      }
                    }
                  }
                  return null;
                }));
      }
      Future<?> reader =
          pool.submit(
              () -> {
                try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of())) {
                  while (writing.get()) {
                    int first = ThreadLocalRandom.current().nextInt(tables.size());
                    int second = (first + 1) % tables.size();
                    Set<String> seenFirst = ops(catalog.loadTable(tables.get(first)));
                    Set<String> seenSecond = ops(catalog.loadTable(tables.get(second)));
                    for (String op : seenFirst) {
                      // Only an acknowledged transaction is known to span both tables.
                      Set<TableIdentifier> on = acknowledged.get(op);
                      if (on != null
                          && on.contains(tables.get(second))
                          && !seenSecond.contains(op)) {
                        partialReads.add(op + " on " + tables.get(first) + " only");
                      }
                    }
                  }
                }
                return null;
              });
      for (Future<?> f : work) {
        f.get(5, TimeUnit.MINUTES);
      }
      writing.set(false);
      reader.get(1, TimeUnit.MINUTES);
      pool.shutdown();

      Map<TableIdentifier, List<String>> history = new HashMap<>();
      for (TableIdentifier id : tables) {
        history.put(id, opsInOrder(setup.loadTable(id)));
      }
      for (Map.Entry<String, Set<TableIdentifier>> ack : acknowledged.entrySet()) {
        for (TableIdentifier table : tables) {
          long count = history.get(table).stream().filter(ack.getKey()::equals).count();
          assertThat(count)
              .as("%s on %s", ack.getKey(), table)
              .isEqualTo(ack.getValue().contains(table) ? 1 : 0);
        }
      }
      for (String op : refused.keySet()) {
        assertThat(history.values()).allSatisfy(ops -> assertThat(ops).doesNotContain(op));
      }
      int appended = history.values().stream().mapToInt(List::size).sum();
      int expected = acknowledged.values().stream().mapToInt(Set::size).sum();
      assertThat(appended).as("no snapshot that no one acknowledged").isEqualTo(expected);
      assertThat(partialReads).as("reads that saw part of a transaction").isEmpty();
      assertThat(serialOrder(history))
          .as("a serial order of all operations consistent with every table's history")
          .hasSize(acknowledged.size());
      assertThat(acknowledged.values().stream().filter(on -> on.size() == 2).count())
          .as("transactions acknowledged")
          .isPositive();
    }
  }

  /**
   * Orders the operations so that on every table each one comes after those before it there; fails
   * when the histories contradict each other (a cycle).
   */
  private static List<String> serialOrder(Map<TableIdentifier, List<String>> history) {
    Map<String, Set<String>> after = new HashMap<>();
    Map<String, Integer> before = new HashMap<>();
    for (List<String> ops : history.values()) {
      for (int i = 0; i < ops.size(); i++) {
        after.computeIfAbsent(ops.get(i), k -> new HashSet<>());
        before.putIfAbsent(ops.get(i), 0);
        if (i > 0 && after.get(ops.get(i - 1)).add(ops.get(i))) {
          before.merge(ops.get(i), 1, Integer::sum);
        }
      }
    }
    List<String> order = new ArrayList<>();
    ArrayDeque<String> ready = new ArrayDeque<>();
    before.forEach(
        (op, n) -> {
          if (n == 0) {
            ready.add(op);
          }
        });
    while (!ready.isEmpty()) {
      String op = ready.poll();
      order.add(op);
      for (String next : after.get(op)) {
        if (before.merge(next, -1, Integer::sum) == 0) {
          ready.add(next);
        }
      }
    }
    assertThat(order).as("the snapshot histories contain a cycle").hasSize(before.size());
    return order;
  }

  private static boolean commitWithRetries(
      RESTCatalog catalog, List<TableIdentifier> tables, String op, int attempts) {
    for (int attempt = 0; attempt < attempts; attempt++) {
      try {
        catalog.commitTransaction(appendsTo(catalog, tables, op));
        return true;
      } catch (CommitFailedException e) {
        // another writer moved a table first: rebuild on the fresh state
      }
    }
    return false;
  }

  /** A fast append of one file per table, all as one multi-table commit. */
  private static List<TableCommit> appendsTo(
      RESTCatalog catalog, List<TableIdentifier> tables, String op) {
    List<TableCommit> commits = new ArrayList<>();
    for (TableIdentifier id : tables) {
      Table table = catalog.loadTable(id);
      Transaction transaction = table.newTransaction();
      AppendFiles append = transaction.newFastAppend().appendFile(file(op + "-" + id.name()));
      append.set(OP, op);
      append.commit();
      TableMetadata base = ((BaseTransaction) transaction).startMetadata();
      TableMetadata updated = ((BaseTransaction) transaction).currentMetadata();
      commits.add(TableCommit.create(id, base, updated));
    }
    return commits;
  }

  private static String transactionJson(List<TableCommit> commits) {
    List<UpdateTableRequest> changes = new ArrayList<>();
    for (TableCommit commit : commits) {
      changes.add(
          UpdateTableRequest.create(commit.identifier(), commit.requirements(), commit.updates()));
    }
    return CommitTransactionRequestParser.toJson(new CommitTransactionRequest(changes));
  }

  /**
   * Waits until every table shows {@code op}. A load may answer 503 while the restarted process
   * recovers (its stores restoring, a table still prepared until the decision reaches it): that is
   * the server's "retry", so the load is retried until the deadline, which allows for a start-up
   * slowed by the other tests sharing the machine.
   */
  private static void awaitAllOrNone(RESTCatalog catalog, List<TableIdentifier> tables, String op)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
    List<Boolean> present = new ArrayList<>();
    ServiceUnavailableException lastUnavailable = null;
    while (System.nanoTime() < deadline) {
      present.clear();
      try {
        for (TableIdentifier id : tables) {
          present.add(ops(catalog.loadTable(id)).contains(op));
        }
      } catch (ServiceUnavailableException recovering) {
        lastUnavailable = recovering;
        Thread.sleep(200);
        continue;
      }
      if (present.stream().allMatch(p -> p)) {
        return;
      }
      Thread.sleep(200);
    }
    assertThat(present)
        .as("%s: loads still answered 503 at the deadline (%s)", op, lastUnavailable)
        .hasSize(tables.size());
    assertThat(present)
        .as("%s: a transaction that reached the log is finished after the restart", op)
        .containsOnly(true);
  }

  private static void awaitExit(FloeProcess floe) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        post(floe.uri() + "/v1/config", "");
      } catch (IOException e) {
        return; // nothing listens any more
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the process did not halt at its fault point");
  }

  private static List<TableIdentifier> createTables(
      RESTCatalog catalog, Namespace ns, String... names) {
    catalog.createNamespace(ns);
    List<TableIdentifier> ids = new ArrayList<>();
    for (String name : names) {
      TableIdentifier id = TableIdentifier.of(ns, name);
      Map<String, String> props = new HashMap<>();
      props.put("commit.retry.num-retries", "50");
      props.put("commit.retry.min-wait-ms", "5");
      props.put("commit.retry.max-wait-ms", "100");
      catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), props);
      ids.add(id);
    }
    return ids;
  }

  private static DataFile file(String name) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("/tmp/floe-txn-it/" + name + ".parquet")
        .withFileSizeInBytes(100)
        .withRecordCount(1)
        .build();
  }

  private static Set<String> ops(Table table) {
    return new HashSet<>(opsInOrder(table));
  }

  /** The op id of every snapshot, from the current snapshot's ancestry, oldest first. */
  private static List<String> opsInOrder(Table table) {
    List<String> ops = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      String op = snapshot.summary().get(OP);
      if (op != null) {
        ops.add(op);
      }
    }
    return ops;
  }

  private static String location(RESTCatalog catalog, TableIdentifier id) {
    return ((HasTableOperations) catalog.loadTable(id))
        .operations()
        .current()
        .metadataFileLocation();
  }

  private static HttpResponse<String> post(String url, String body)
      throws IOException, InterruptedException {
    return post(url, body, null);
  }

  private static HttpResponse<String> post(String url, String body, String idempotencyKey)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60));
    if (idempotencyKey != null) {
      request.header("Idempotency-Key", idempotencyKey);
    }
    request =
        body.isEmpty()
            ? request.GET()
            : request
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The committed events on floe.events (read_committed), grouped by command id. */
  private static Map<String, List<TableCommittedEvent>> committedEvents(Path dataDir, int atLeast)
      throws Exception {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, FloeProcess.embeddedKafka(dataDir));
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    Map<String, List<TableCommittedEvent>> byCommand = new HashMap<>();
    long deadline = System.currentTimeMillis() + 20_000;
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor("floe.events").stream()
              .map(p -> new TopicPartition(p.topic(), p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      while (byCommand.values().stream().noneMatch(list -> list.size() >= atLeast)
          && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          CatalogEvent event = EventEnvelope.fromBytes(record.value()).data();
          if (event instanceof TableCommittedEvent committed) {
            byCommand.computeIfAbsent(committed.commandId(), k -> new ArrayList<>()).add(committed);
          }
        }
      }
    }
    return byCommand;
  }
}
