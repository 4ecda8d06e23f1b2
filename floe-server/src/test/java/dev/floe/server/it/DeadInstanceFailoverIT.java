package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.FaultCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A killed instance's partitions move to the survivor as soon as it dies, not when its group
 * session ends: the survivor sees its open {@code /internal/v1/alive} answer end and its port
 * refuse connections, and removes its stream threads from the processor's group. The instances run
 * with a 30 s session, so a commit to a table of the dead instance that succeeds within it shows
 * the removal, and the group is read to see the dead members leave.
 */
class DeadInstanceFailoverIT {
  private static final Duration SESSION = Duration.ofSeconds(30);
  private static final int TABLES = 8;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir static Path root;
  private static FaultCluster cluster;

  @BeforeAll
  static void start() {
    cluster =
        new FaultCluster(
                root,
                2,
                Map.of(
                    "floe.streams.session-timeout", SESSION.toString(),
                    "floe.reply-timeout", "PT20S"))
            .start();
    String first = cluster.uris().get(0);
    AuthHttp.expect(200, first, "POST", "/v1/namespaces", null, "{\"namespace\":[\"failover\"]}");
    for (int i = 0; i < TABLES; i++) {
      AuthHttp.expect(
          200,
          first,
          "POST",
          "/v1/namespaces/failover/tables",
          null,
          "{\"name\":\"t"
              + i
              + "\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,"
              + "\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aKilledInstancesTablesCommitAgainLongBeforeItsSessionEnds() throws Exception {
    String survivor = cluster.uris().get(0);
    String doomed = URI.create(cluster.uris().get(1)).getAuthority();
    List<String> ownedByDoomed = awaitTablesServedBy(survivor, doomed);
    String instanceId =
        Files.readString(cluster.instance(1).dataDir().resolve("instance.id")).trim();
    assertThat(groupInstanceIds()).anyMatch(id -> id.startsWith(instanceId + "-"));
    // The survivor watches a peer within a round (1 s) of the peer answering its internal routes,
    // which it did: the loads above were forwarded to it.
    Thread.sleep(2_000);

    cluster.instance(1).kill();
    long killed = System.nanoTime();

    long deadline = killed + TimeUnit.SECONDS.toNanos(15);
    while (groupInstanceIds().stream().anyMatch(id -> id.startsWith(instanceId + "-"))) {
      assertThat(System.nanoTime())
          .as("the dead instance's members left the group within 15 s of a 30 s session")
          .isLessThan(deadline);
      Thread.sleep(100);
    }
    for (String table : ownedByDoomed) {
      commitUntilAcknowledged(survivor, table, deadline);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - killed))
        .as("every table of the dead instance committed again")
        .isLessThan(SESSION.dividedBy(2));
  }

  /** The tables whose loads the survivor forwards to {@code owner} (its X-Floe-Served-By). */
  private static List<String> awaitTablesServedBy(String via, String owner) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      List<String> owned = new ArrayList<>();
      for (int i = 0; i < TABLES; i++) {
        HttpResponse<String> load =
            HTTP.send(
                HttpRequest.newBuilder(URI.create(via + "/v1/namespaces/failover/tables/t" + i))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (load.statusCode() == 200
            && owner.equals(load.headers().firstValue("X-Floe-Served-By").orElse(""))) {
          owned.add("t" + i);
        }
      }
      if (!owned.isEmpty()) {
        return owned;
      }
      assertThat(System.nanoTime())
          .as("the second instance owns a partition of one of " + TABLES + " tables")
          .isLessThan(deadline);
      Thread.sleep(500);
    }
  }

  /** A commit to {@code table}, sent again while the survivor answers 503 (rebalancing). */
  private static void commitUntilAcknowledged(String via, String table, long deadline)
      throws Exception {
    while (true) {
      AuthHttp.Response answer =
          AuthHttp.send(
              via,
              "POST",
              "/v1/namespaces/failover/tables/" + table,
              null,
              "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
                  + "\"updates\":{\"after-kill\":\"yes\"}}]}");
      if (answer.status() == 200) {
        return;
      }
      assertThat(answer.status()).as(answer.body()).isEqualTo(503);
      assertThat(System.nanoTime()).as("a commit to " + table).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  private static List<String> groupInstanceIds() throws Exception {
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
      return admin
          .describeConsumerGroups(List.of("floe.processor"))
          .all()
          .get(10, TimeUnit.SECONDS)
          .get("floe.processor")
          .members()
          .stream()
          .map(MemberDescription::groupInstanceId)
          .flatMap(Optional::stream)
          .toList();
    }
  }
}
