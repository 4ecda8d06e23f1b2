package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.client.Uuid7;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.infra.testing.FreePorts;
import dev.floe.projections.replay.EventLogReader;
import dev.floe.server.it.support.RestClients;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * High availability, first slice: a three-node KRaft cluster ({@code floe broker --node-id ...
 * --controller-quorum ...}, three processes, every node broker and controller), replication factor
 * 3 and two in-sync replicas, two {@code floe serve} instances with warm standbys. Writers commit
 * to three tables while the broker that leads partition 0 of {@code floe.commands} is SIGKILLed:
 * commits go on, every acknowledged commit is in its table's metadata, and {@code floe.events}
 * holds exactly one event for each.
 */
class ThreeBrokerClusterIT {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Namespace NS = Namespace.of("ha");
  private static final int TABLES = 3;
  private static final Duration BEFORE_KILL = Duration.ofSeconds(6);
  private static final Duration AFTER_KILL = Duration.ofSeconds(20);

  /** Generous: the failover takes seconds here, and VMs differ 3-10x. */
  private static final Duration MAX_GAP = Duration.ofSeconds(60);

  @TempDir Path root;

  /** An acknowledged commit: its table, the property it set, and when its answer came. */
  private record Ack(String table, String property, long atNanos) {}

  @Test
  void acknowledgedCommitsSurviveASigkillOfTheLeadingBroker() throws Exception {
    long started = System.nanoTime();
    int[] ports = new int[3];
    int[] controllerPorts = new int[3];
    List<String> voters = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ports[i] = FreePorts.next();
      controllerPorts[i] = FreePorts.next();
      voters.add((i + 1) + "@localhost:" + controllerPorts[i]);
    }
    String quorum = String.join(",", voters);
    String bootstrap =
        "localhost:" + ports[0] + ",localhost:" + ports[1] + ",localhost:" + ports[2];
    String clusterId = Uuid.randomUuid().toString();
    Process[] brokers = new Process[3];
    FloeProcess a = null;
    FloeProcess b = null;
    try {
      for (int i = 0; i < 3; i++) {
        brokers[i] =
            FloeProcess.launch(
                "512m",
                List.of(
                    "broker",
                    "--data-dir",
                    root.resolve("broker-" + (i + 1)).toString(),
                    "--node-id",
                    String.valueOf(i + 1),
                    "--controller-quorum",
                    quorum,
                    "--port",
                    String.valueOf(ports[i]),
                    "--controller-port",
                    String.valueOf(controllerPorts[i]),
                    "--cluster-id",
                    clusterId),
                Path.of("target", "it-logs", "three-broker-" + (i + 1) + ".log"),
                false);
      }
      try (Admin admin = admin(bootstrap)) {
        awaitBrokers(admin, brokers, 3);

        Map<String, String> properties = new HashMap<>();
        properties.put("floe.kafka.bootstrap-servers", bootstrap);
        properties.put("floe.kafka.replication-factor", "3");
        properties.put("floe.streams.standby-replicas", "1");
        properties.put(
            "floe.warehouse.default.location",
            root.resolve("lake").toAbsolutePath().toUri().toString().replaceAll("/$", ""));
        a = new FloeProcess(root.resolve("floe-a"), properties).start();
        b = new FloeProcess(root.resolve("floe-b"), properties).start();

        List<String> tables = new ArrayList<>();
        try (RESTCatalog catalog = RestClients.connect(a.uri(), Map.of())) {
          catalog.createNamespace(NS);
          for (int t = 0; t < TABLES; t++) {
            tables.add("t" + t);
            catalog.createTable(
                TableIdentifier.of(NS, "t" + t), SCHEMA, PartitionSpec.unpartitioned(), Map.of());
          }
        }
        assertEveryTopicReplicatedThriceWithTwoInSync(admin);

        List<String> uris = List.of(a.uri(), b.uri());
        ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger retries = new AtomicInteger();
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < TABLES; t++) {
          String table = tables.get(t);
          int offset = t;
          Thread writer =
              new Thread(
                  () -> write(table, uris, offset, running, acks, failures, retries),
                  "writer-" + table);
          writer.start();
          writers.add(writer);
        }

        Thread.sleep(BEFORE_KILL.toMillis());
        TopicPartitionInfo commands0 =
            admin
                .describeTopics(List.of("floe.commands"))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get("floe.commands")
                .partitions()
                .get(0);
        int victim = commands0.leader().id();
        int acksBeforeKill = acks.size();
        long killedAt = System.nanoTime();
        brokers[victim - 1].destroyForcibly();
        brokers[victim - 1].waitFor(30, TimeUnit.SECONDS);
        System.out.printf(
            "ThreeBrokerClusterIT: SIGKILLed broker %d (leader of floe.commands-0) after %d"
                + " acknowledged commits%n",
            victim, acksBeforeKill);

        Thread.sleep(AFTER_KILL.toMillis());
        running.set(false);
        for (Thread writer : writers) {
          writer.join(120_000);
        }

        assertThat(failures).as("commits that never got an answer").isEmpty();
        List<Ack> acknowledged = new ArrayList<>(acks);
        long afterKill = acknowledged.stream().filter(ack -> ack.atNanos() > killedAt).count();
        Duration longestGap = longestGap(acknowledged, tables);
        Duration gapAcrossKill = firstAckAfter(acknowledged, killedAt, tables);
        System.out.printf(
            "ThreeBrokerClusterIT: %d acknowledged commits (%d after the kill, %d retried"
                + " requests); longest gap between a table's acknowledged commits %d ms; every"
                + " table committed again %d ms after the kill%n",
            acknowledged.size(),
            afterKill,
            retries.get(),
            longestGap.toMillis(),
            gapAcrossKill.toMillis());
        assertThat(afterKill).as("commits acknowledged after the kill").isGreaterThan(0);
        assertThat(longestGap).as("longest gap between acknowledged commits").isLessThan(MAX_GAP);

        // Every acknowledged commit is in its table's metadata...
        try (RESTCatalog catalog = RestClients.connect(b.uri(), Map.of())) {
          for (String table : tables) {
            Map<String, String> props =
                catalog.loadTable(TableIdentifier.of(NS, table)).properties();
            for (Ack ack : acknowledged) {
              if (ack.table().equals(table)) {
                assertThat(props).as("%s's properties", table).containsKey(ack.property());
              }
            }
          }
        }
        // ...and floe.events (read_committed) holds exactly one event for each.
        Map<String, Integer> events = new HashMap<>();
        List<String> otherEvents = new ArrayList<>();
        EventLogReader.read(
            bootstrap,
            "floe.events",
            EventLogReader.Until.END,
            envelope -> {
              if (envelope.data() instanceof TableCommittedEvent commit
                  && commit.identifier().namespace().equals(NS)) {
                for (MetadataUpdate update : commit.updates()) {
                  if (update instanceof MetadataUpdate.SetProperties set) {
                    set.updated()
                        .keySet()
                        .forEach(
                            key ->
                                events.merge(
                                    commit.identifier().name() + "/" + key, 1, Integer::sum));
                  } else {
                    otherEvents.add(update.getClass().getSimpleName());
                  }
                }
              }
            },
            (done, total) -> {});
        Map<String, Integer> expected = new HashMap<>();
        acknowledged.forEach(ack -> expected.put(ack.table() + "/" + ack.property(), 1));
        assertThat(otherEvents).as("updates other than set-properties").isEmpty();
        assertThat(events).as("events per acknowledged commit").isEqualTo(expected);
        System.out.printf(
            "ThreeBrokerClusterIT: %d s in all%n",
            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
      }
    } finally {
      if (a != null) {
        a.close();
      }
      if (b != null) {
        b.close();
      }
      for (Process broker : brokers) {
        if (broker != null && broker.isAlive()) {
          broker.destroyForcibly();
          broker.waitFor(30, TimeUnit.SECONDS);
        }
      }
    }
  }

  /**
   * Commits set-properties one after the other, each with its own idempotency key and a property of
   * its own; a commit without an answer (timeout, 5xx, connection refused) is retried with the same
   * key, on the other instance, until it is answered: so every commit sent is acknowledged once,
   * whatever reached the log.
   */
  private static void write(
      String table,
      List<String> uris,
      int firstInstance,
      AtomicBoolean running,
      ConcurrentLinkedQueue<Ack> acks,
      ConcurrentLinkedQueue<String> failures,
      AtomicInteger retries) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    int instance = firstInstance;
    for (int n = 0; running.get(); n++) {
      String property = "c" + n;
      String body =
          "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\""
              + property
              + "\":\""
              + n
              + "\"}}]}";
      String key = Uuid7.next().toString();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (true) {
        String uri = uris.get(instance % uris.size()) + "/v1/default/namespaces/ha/tables/" + table;
        int status;
        String answer;
        try {
          HttpResponse<String> response =
              http.send(
                  HttpRequest.newBuilder(URI.create(uri))
                      .timeout(Duration.ofSeconds(30))
                      .header("Content-Type", "application/json")
                      .header("Idempotency-Key", key)
                      .POST(HttpRequest.BodyPublishers.ofString(body))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
          status = response.statusCode();
          answer = response.body();
        } catch (Exception e) {
          status = -1;
          answer = e.toString();
        }
        if (status == 200) {
          acks.add(new Ack(table, property, System.nanoTime()));
          break;
        }
        if (status >= 400 && status < 500 && status != 408 && status != 429) {
          failures.add(table + "/" + property + ": " + status + " " + answer);
          return;
        }
        if (System.nanoTime() > deadline) {
          failures.add(table + "/" + property + ": no answer within 90 s, last " + answer);
          return;
        }
        retries.incrementAndGet();
        instance++;
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** The longest time any table went without an acknowledged commit, from the first. */
  private static Duration longestGap(List<Ack> acks, List<String> tables) {
    long longest = 0;
    for (String table : tables) {
      List<Long> times =
          acks.stream()
              .filter(ack -> ack.table().equals(table))
              .map(Ack::atNanos)
              .sorted()
              .toList();
      for (int i = 1; i < times.size(); i++) {
        longest = Math.max(longest, times.get(i) - times.get(i - 1));
      }
    }
    return Duration.ofNanos(longest);
  }

  /** How long after the kill the last of the tables had its first acknowledged commit. */
  private static Duration firstAckAfter(List<Ack> acks, long killedAt, List<String> tables) {
    long latest = killedAt;
    for (String table : tables) {
      long first =
          acks.stream()
              .filter(ack -> ack.table().equals(table) && ack.atNanos() > killedAt)
              .mapToLong(Ack::atNanos)
              .min()
              .orElse(Long.MAX_VALUE);
      latest = Math.max(latest, first);
    }
    return latest == Long.MAX_VALUE ? Duration.ofDays(1) : Duration.ofNanos(latest - killedAt);
  }

  /**
   * Floe's topics, Kafka Streams' changelogs and Kafka's own (consumer offsets, transaction state):
   * three replicas of every partition, and two in-sync replicas for a write.
   */
  private static void assertEveryTopicReplicatedThriceWithTwoInSync(Admin admin) throws Exception {
    Set<String> names =
        admin
            .listTopics(new ListTopicsOptions().listInternal(true))
            .names()
            .get(10, TimeUnit.SECONDS);
    assertThat(names)
        .contains("floe.commands", "floe.events", "__consumer_offsets", "__transaction_state")
        .anyMatch(name -> name.endsWith("-changelog"));
    Map<String, TopicDescription> descriptions =
        admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS);
    descriptions.forEach(
        (topic, description) -> {
          for (TopicPartitionInfo partition : description.partitions()) {
            assertThat(partition.replicas()).as("%s replicas", topic).hasSize(3);
          }
        });
    List<ConfigResource> resources =
        names.stream().map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).toList();
    admin
        .describeConfigs(resources)
        .all()
        .get(10, TimeUnit.SECONDS)
        .forEach(
            (resource, config) ->
                assertThat(config.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value())
                    .as("%s min.insync.replicas", resource.name())
                    .isEqualTo("2"));
  }

  private static Admin admin(String bootstrap) {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000));
  }

  private static void awaitBrokers(Admin admin, Process[] brokers, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      for (Process broker : brokers) {
        if (!broker.isAlive()) {
          throw new IllegalStateException(
              "a broker exited with " + broker.exitValue() + "; see target/it-logs/three-broker-*");
        }
      }
      try {
        if (admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() == count) {
          return;
        }
      } catch (Exception e) {
        // not answering yet
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("the cluster did not have " + count + " brokers in 120 s");
  }
}
