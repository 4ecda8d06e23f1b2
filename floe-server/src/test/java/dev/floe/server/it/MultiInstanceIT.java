package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.client.Uuid7;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.DataFileEntries;
import dev.floe.server.it.support.RestClients;
import dev.floe.server.it.support.ServerEvents;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances share the partitions of one Kafka cluster: any instance answers any request (a read
 * for a key the other hosts is forwarded to it), and a write acknowledged by one is seen by the
 * next read on the other; a commit on a warehouse that is written ahead is sent to the instance
 * that hosts the table.
 */
class MultiInstanceIT {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Namespace NS = Namespace.of("shared");

  @TempDir Path first;
  @TempDir Path second;

  @Test
  void anyInstanceAnswersAnyRequestAndReadsItsOwnWritesAcrossInstances() throws Exception {
    // One warehouse for both, as in production: each instance reads and writes only inside the
    // roots it is configured with.
    String lake = first.resolve("lake").toUri().toString();
    try (FloeProcess a =
            new FloeProcess(first, Map.of("floe.warehouse.default.location", lake)).start();
        FloeProcess b =
            new FloeProcess(
                    second,
                    Map.of(
                        "floe.kafka.bootstrap-servers",
                        FloeProcess.embeddedKafka(first),
                        "floe.warehouse.default.location",
                        lake))
                .start();
        RESTCatalog viaA = RestClients.connect(a.uri(), Map.of());
        RESTCatalog viaB = RestClients.connect(b.uri(), Map.of())) {
      viaA.createNamespace(NS);
      List<TableIdentifier> tables = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        TableIdentifier id = TableIdentifier.of(NS, "t" + i);
        viaA.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), new HashMap<>());
        tables.add(id);
      }

      awaitEveryTableLoads(viaB, tables);
      assertThat(viaB.listTables(NS)).containsExactlyInAnyOrderElementsOf(tables);
      // Both instances host some of the tables, so some of B's loads were answered by A.
      Set<String> servers = new HashSet<>();
      HttpClient http = HttpClient.newHttpClient();
      for (TableIdentifier id : tables) {
        HttpResponse<String> load =
            http.send(
                HttpRequest.newBuilder(
                        URI.create(b.uri() + "/v1/default/namespaces/shared/tables/" + id.name()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(load.statusCode()).isEqualTo(200);
        servers.add(load.headers().firstValue("X-Floe-Served-By").orElseThrow());
      }
      assertThat(servers).as("instances that answered B's loads").hasSize(2);

      for (TableIdentifier id : tables) {
        Table table = viaB.loadTable(id);
        table.newFastAppend().appendFile(DataFileEntries.of(table, "x")).commit();
        long written = table.currentSnapshot().snapshotId();
        // The next read, on the other instance, sees the write.
        assertThat(viaA.loadTable(id).currentSnapshot().snapshotId())
            .as("%s via A", id)
            .isEqualTo(written);
        assertThat(viaB.loadTable(id).currentSnapshot().snapshotId())
            .as("%s via B", id)
            .isEqualTo(written);
      }
      assertThat(viaA.listTables(NS)).containsExactlyInAnyOrderElementsOf(viaB.listTables(NS));

      // A keyed commit whose answer was lost, retried against the other instance: replayed.
      String key = Uuid7.next().toString();
      String commit =
          "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"retried\":\"once\"}}]}";
      String path = "/v1/default/namespaces/shared/tables/t0";
      HttpResponse<String> first = post(http, a.uri() + path, commit, key);
      HttpResponse<String> retry = post(http, b.uri() + path, commit, key);
      assertThat(first.statusCode()).isEqualTo(200);
      assertThat(retry.statusCode()).isEqualTo(200);
      ObjectMapper json = new ObjectMapper();
      String location = json.readTree(first.body()).path("metadata-location").asText();
      assertThat(json.readTree(retry.body()).path("metadata-location").asText())
          .isEqualTo(location);
      // One of the two answers was built from the file (the instance that did not decide it).
      assertThat(retry.body()).as("the same bytes from either instance").isEqualTo(first.body());
      assertThat(retry.headers().firstValue("ETag")).isEqualTo(first.headers().firstValue("ETag"));
      assertThat(
              ((HasTableOperations) viaA.loadTable(tables.get(0)))
                  .operations()
                  .current()
                  .metadataFileLocation())
          .as("the retry had no second effect")
          .isEqualTo(location);

      aTokenCreationRetriedOnTheOtherInstanceNamesTheTokenToRevoke(a, b);
      anEventsTokenOfOneInstanceWorksOnTheOther(http, a, b);
    }
  }

  /**
   * The events endpoint's continuation token is signed with the secret the instances share: a
   * client may page on one instance and go on on the other, and gets what it would have got there.
   */
  private static void anEventsTokenOfOneInstanceWorksOnTheOther(
      HttpClient http, FloeProcess a, FloeProcess b) throws Exception {
    ObjectMapper json = new ObjectMapper();
    String filter = "\"object-types\":[\"table\"],\"page-size\":5";
    JsonNode firstPage =
        json.readTree(post(http, a.uri() + "/v1/default/events", "{" + filter + "}", null).body());
    String token = firstPage.path("continuation-token").asText();
    String next = "{" + filter + ",\"continuation-token\":\"" + token + "\"}";
    HttpResponse<String> onA = post(http, a.uri() + "/v1/default/events", next, null);
    HttpResponse<String> onB = post(http, b.uri() + "/v1/default/events", next, null);
    assertThat(onB.statusCode()).as(onB.body()).isEqualTo(200);
    assertThat(firstPage.path("events")).hasSize(5);
    assertThat(json.readTree(onB.body()).path("events"))
        .as("the next page, on the other instance")
        .isEqualTo(json.readTree(onA.body()).path("events"))
        .isNotEmpty();
  }

  /**
   * The token of a keyed creation is shown only by the instance that created it (it is stored
   * nowhere but as its hash): a retry on the other instance is told which token to revoke and is
   * never given a token that was not stored; a retry on the first instance gets the first answer.
   */
  private static void aTokenCreationRetriedOnTheOtherInstanceNamesTheTokenToRevoke(
      FloeProcess a, FloeProcess b) throws InterruptedException {
    String tokens = "/management/v1/principals/etl/tokens";
    AuthHttp.expect(201, a.uri(), "POST", "/management/v1/principals", null, "{\"name\":\"etl\"}");
    Map<String, String> key = Map.of("Idempotency-Key", Uuid7.next().toString());
    AuthHttp.Response first = AuthHttp.send(a.uri(), "POST", tokens, null, "{}", key);
    AuthHttp.Response elsewhere = AuthHttp.send(b.uri(), "POST", tokens, null, "{}", key);
    AuthHttp.Response here = AuthHttp.send(a.uri(), "POST", tokens, null, "{}", key);

    assertThat(first.status()).isEqualTo(201);
    String id = first.json().path("id").asText();
    assertThat(elsewhere.status()).as(elsewhere.body()).isEqualTo(409);
    assertThat(elsewhere.json().path("error").path("type").asText())
        .isEqualTo("AlreadyExistsException");
    assertThat(elsewhere.json().path("error").path("message").asText())
        .contains("token " + id)
        .contains("revoke");
    assertThat(elsewhere.body()).doesNotContain("floe_");
    assertThat(here.status()).isEqualTo(201);
    assertThat(here.body()).isEqualTo(first.body());
    List<String> ids = new ArrayList<>();
    for (int attempt = 0; attempt < 50 && !ids.contains(id); attempt++) {
      ids.clear();
      AuthHttp.send(b.uri(), "GET", tokens, null, null)
          .json()
          .path("tokens")
          .forEach(t -> ids.add(t.path("id").asText()));
      Thread.sleep(100);
    }
    assertThat(ids).as("the only token of etl").containsExactly(id);
  }

  /**
   * On a warehouse that is written ahead, a commit that reaches the instance which does not host
   * the table is sent to the one that does, which writes the metadata file ahead (it holds the
   * table's state); without that the processor would write it on its stream thread.
   */
  @Test
  void commitsReachingTheOtherInstanceAreWrittenAheadByTheOwner() throws Exception {
    // One warehouse for both, as in production (by default each would have its own data dir's).
    Map<String, String> writeAhead =
        Map.of(
            "floe.warehouse.default.write-ahead",
            "on",
            "floe.warehouse.default.location",
            first.resolve("lake").toUri().toString());
    Map<String, String> joining = new HashMap<>(writeAhead);
    try (FloeProcess a = new FloeProcess(first, writeAhead).start()) {
      joining.put("floe.kafka.bootstrap-servers", FloeProcess.embeddedKafka(first));
      try (FloeProcess b = new FloeProcess(second, joining).start();
          RESTCatalog viaB = RestClients.connect(b.uri(), Map.of())) {
        viaB.createNamespace(NS);
        List<TableIdentifier> tables = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          TableIdentifier id = TableIdentifier.of(NS, "w" + i);
          viaB.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), new HashMap<>());
          tables.add(id);
        }
        awaitEveryTableLoads(viaB, tables);

        HttpClient http = HttpClient.newHttpClient();
        Set<String> answeredBy = new HashSet<>();
        for (TableIdentifier id : tables) {
          for (int i = 0; i < 3; i++) {
            HttpResponse<String> commit =
                post(
                    http,
                    b.uri() + "/v1/default/namespaces/shared/tables/" + id.name(),
                    "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
                        + "\"updates\":{\"round\":\""
                        + i
                        + "\"}}]}",
                    Uuid7.next().toString());
            assertThat(commit.statusCode()).as(commit.body()).isEqualTo(200);
            answeredBy.add(commit.headers().firstValue("X-Floe-Served-By").orElseThrow());
          }
        }
        assertThat(answeredBy).as("instances that answered B's commits").hasSize(2);

        List<TableCommittedEvent> commits =
            ServerEvents.read(first).stream()
                .filter(TableCommittedEvent.class::isInstance)
                .map(TableCommittedEvent.class::cast)
                .filter(e -> e.identifier().namespace().equals(NS))
                .toList();
        assertThat(commits).hasSize(tables.size() * 3);
        // The processor names a file it writes by the command's id, the API by a name of its own.
        assertThat(commits)
            .as("every commit's file was written ahead, whichever instance hosts its table")
            .allSatisfy(c -> assertThat(c.metadataLocation()).doesNotContain(c.commandId()));
        for (TableIdentifier id : tables) {
          assertThat(viaB.loadTable(id).properties()).containsEntry("round", "2");
        }
      }
    }
  }

  private static HttpResponse<String> post(HttpClient http, String url, String body, String key)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** B joins the group after A: wait for the rebalance that gives it its partitions to settle. */
  private static void awaitEveryTableLoads(RESTCatalog catalog, List<TableIdentifier> tables)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + 90_000;
    while (true) {
      try {
        for (TableIdentifier id : tables) {
          catalog.loadTable(id);
        }
        return;
      } catch (RuntimeException e) {
        if (System.currentTimeMillis() > deadline) {
          throw e;
        }
        Thread.sleep(500);
      }
    }
  }
}
