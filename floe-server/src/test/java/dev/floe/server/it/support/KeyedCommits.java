package dev.floe.server.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.client.Uuid7;
import dev.floe.projections.replay.EventLogReader;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;

/**
 * Keyed commits sent as raw HTTP to the instances of a {@link FaultCluster}: one append (an {@code
 * add-snapshot} guarded by {@code assert-ref-snapshot-id}) under one {@code Idempotency-Key}, sent
 * many times at once, or sent once with its answer dropped and then retried elsewhere.
 */
public final class KeyedCommits {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  public record Result(
      List<Integer> statuses,
      List<String> bodies,
      Set<String> servedBy,
      int snapshotsBefore,
      int snapshotsAfter,
      long sequenceBefore,
      long sequenceAfter,
      long currentAfter,
      long addedSnapshotId,
      long committedEvents) {}

  public record DroppedResult(
      int retryStatus,
      String retryBody,
      String retryMetadataLocation,
      String metadataLocationAfterFirst,
      String secondRetryBody,
      int snapshotsBefore,
      int snapshotsAfter,
      long committedEvents) {}

  private final FaultCluster cluster;
  private final String namespace;
  private final String table;
  private final String path;

  /** Creates the table (with one snapshot) through the Java client. */
  public KeyedCommits(FaultCluster cluster, String namespace, String table) throws IOException {
    this.cluster = cluster;
    this.namespace = namespace;
    this.table = table;
    this.path = "/v1/default/namespaces/" + namespace + "/tables/" + table;
    try (RESTCatalog catalog = HarnessWriter.connect(cluster.uris().get(0), (p, s, m) -> {})) {
      Namespace ns = Namespace.of(namespace);
      if (!catalog.namespaceExists(ns)) {
        catalog.createNamespace(ns);
      }
      Table created;
      try {
        created =
            catalog.createTable(
                TableIdentifier.of(ns, table),
                new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
                PartitionSpec.unpartitioned(),
                Map.of("format-version", "2"));
      } catch (AlreadyExistsException e) {
        created = catalog.loadTable(TableIdentifier.of(ns, table));
      }
      created.newFastAppend().appendFile(DataFileEntries.of(created, "x")).commit();
    }
  }

  /** Sends {@code copies} identical keyed appends at once, spread over every instance. */
  public Result sendConcurrentDuplicates(int copies) throws Exception {
    JsonNode before = load();
    long events = committedEvents();
    long snapshotId = newSnapshotId();
    String body = appendBody(before, snapshotId);
    String key = Uuid7.next().toString();
    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    for (int i = 0; i < copies; i++) {
      answers.add(post(cluster.uris().get(i % cluster.size()), body, key));
    }
    List<Integer> statuses = new ArrayList<>();
    List<String> bodies = new ArrayList<>();
    Set<String> servedBy = new TreeSet<>();
    for (CompletableFuture<HttpResponse<String>> answer : answers) {
      HttpResponse<String> response = answer.get();
      statuses.add(response.statusCode());
      bodies.add(response.body());
      response.headers().firstValue("X-Floe-Served-By").ifPresent(servedBy::add);
    }
    JsonNode after = load();
    return new Result(
        statuses,
        bodies,
        servedBy,
        before.path("metadata").path("snapshots").size(),
        after.path("metadata").path("snapshots").size(),
        before.path("metadata").path("last-sequence-number").asLong(),
        after.path("metadata").path("last-sequence-number").asLong(),
        after.path("metadata").path("current-snapshot-id").asLong(),
        snapshotId,
        committedEvents() - events);
  }

  /**
   * Sends one keyed append to the first instance over a raw socket and never reads the answer (the
   * client lost it), waits until the change is visible, then retries the same request with the same
   * key against the second instance, and once more against the first.
   */
  public DroppedResult dropAnswerThenRetryElsewhere() throws Exception {
    JsonNode before = load();
    long events = committedEvents();
    long snapshotId = newSnapshotId();
    String body = appendBody(before, snapshotId);
    String key = Uuid7.next().toString();
    URI first = URI.create(cluster.uris().get(0));
    JsonNode afterFirst;
    try (Socket socket = new Socket(first.getHost(), first.getPort())) {
      byte[] payload = body.getBytes(StandardCharsets.UTF_8);
      String head =
          "POST "
              + path
              + " HTTP/1.1\r\nHost: "
              + first.getHost()
              + ":"
              + first.getPort()
              + "\r\nContent-Type: application/json\r\nIdempotency-Key: "
              + key
              + "\r\nContent-Length: "
              + payload.length
              + "\r\n\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(payload);
      out.flush();
      afterFirst = awaitCurrentSnapshot(snapshotId);
      // The socket closes unread: the answer is dropped.
    }
    HttpResponse<String> retry = post(cluster.uris().get(1), body, key).get();
    HttpResponse<String> secondRetry = post(cluster.uris().get(0), body, key).get();
    JsonNode after = load();
    return new DroppedResult(
        retry.statusCode(),
        retry.body(),
        JSON.readTree(retry.body()).path("metadata-location").asText(),
        afterFirst.path("metadata-location").asText(),
        secondRetry.body(),
        before.path("metadata").path("snapshots").size(),
        after.path("metadata").path("snapshots").size(),
        committedEvents() - events);
  }

  private JsonNode awaitCurrentSnapshot(long snapshotId) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      JsonNode loaded = load();
      if (loaded.path("metadata").path("current-snapshot-id").asLong() == snapshotId) {
        return loaded;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("The first attempt's snapshot never became current");
      }
      Thread.sleep(50);
    }
  }

  /** Iceberg's append of one snapshot, as the Java client sends it, without the manifests. */
  private String appendBody(JsonNode loaded, long snapshotId) {
    JsonNode metadata = loaded.path("metadata");
    long parent = metadata.path("current-snapshot-id").asLong();
    ObjectNode body = JSON.createObjectNode();
    ArrayNode requirements = body.putArray("requirements");
    requirements
        .addObject()
        .put("type", "assert-table-uuid")
        .put("uuid", metadata.path("table-uuid").asText());
    requirements
        .addObject()
        .put("type", "assert-ref-snapshot-id")
        .put("ref", "main")
        .put("snapshot-id", parent);
    ArrayNode updates = body.putArray("updates");
    ObjectNode snapshot = updates.addObject().put("action", "add-snapshot").putObject("snapshot");
    snapshot
        .put("snapshot-id", snapshotId)
        .put("parent-snapshot-id", parent)
        .put("sequence-number", metadata.path("last-sequence-number").asLong() + 1)
        .put("timestamp-ms", System.currentTimeMillis())
        .put(
            "manifest-list",
            metadata.path("location").asText() + "/metadata/snap-" + snapshotId + "-keyed.avro")
        .put("schema-id", metadata.path("current-schema-id").asInt());
    snapshot.putObject("summary").put("operation", "append");
    updates
        .addObject()
        .put("action", "set-snapshot-ref")
        .put("ref-name", "main")
        .put("type", "branch")
        .put("snapshot-id", snapshotId);
    return body.toString();
  }

  private JsonNode load() throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(cluster.uris().get(0) + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new AssertionError("load " + path + ": " + response.statusCode() + response.body());
    }
    return JSON.readTree(response.body());
  }

  /** POSTs the commit to the table's route on the instance at {@code uri}. */
  private CompletableFuture<HttpResponse<String>> post(String uri, String body, String key) {
    return HTTP.sendAsync(
        HttpRequest.newBuilder(URI.create(uri + path))
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", key)
            .timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private long committedEvents() throws Exception {
    AtomicLong count = new AtomicLong();
    String subject = namespace + "." + table;
    EventLogReader.read(
        cluster.broker().bootstrapServers(),
        "floe.events",
        EventLogReader.Until.END,
        e -> {
          if (e.type().equals("floe.table.committed") && e.subject().equals(subject)) {
            count.incrementAndGet();
          }
        },
        (d, t) -> {});
    return count.get();
  }

  private static long newSnapshotId() {
    return Math.abs(UUID.randomUUID().getMostSignificantBits() >> 1);
  }
}
