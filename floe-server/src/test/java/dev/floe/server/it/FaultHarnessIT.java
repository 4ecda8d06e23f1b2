package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.floe.server.it.support.FaultCluster;
import dev.floe.server.it.support.FaultFigures;
import dev.floe.server.it.support.FaultRun;
import dev.floe.server.it.support.KeyedCommits;
import dev.floe.server.it.support.LineageChecker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The fault harness (issue #4): a Kafka broker and several Floe instances, each its own process,
 * concurrent writers with Iceberg's RESTCatalog failing over between the instances, SIGKILLs of
 * instances and of the broker under load, and a lineage checker over the final metadata. Every
 * acknowledged commit must be there exactly once, on one linear chain with dense sequence numbers,
 * and no request may get a 409 against its own commit.
 *
 * <p>The defaults are the short version CI runs (about two minutes on 2 cores). The long version
 * sets {@code -Dfloe.faults.kills=30 -Dfloe.faults.broker-restarts=3} and more; see
 * bench/fault-harness.sh and docs/reliability.md. Figures go to {@code target/fault-harness/}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultHarnessIT {
  private static final int INSTANCES = Integer.getInteger("floe.faults.instances", 2);
  private static final int WRITERS = Integer.getInteger("floe.faults.writers", 4);
  private static final int MIXED_WRITERS = Integer.getInteger("floe.faults.mixed-writers", 2);
  private static final int TABLES = Integer.getInteger("floe.faults.tables", 4);
  private static final int KILLS = Integer.getInteger("floe.faults.kills", 4);
  private static final int BROKER_RESTARTS = Integer.getInteger("floe.faults.broker-restarts", 1);
  private static final Duration LOAD =
      Duration.ofSeconds(Integer.getInteger("floe.faults.duration", 15));
  private static final Duration PAUSE =
      Duration.ofMillis(Integer.getInteger("floe.faults.pause-ms", 2000));
  private static final Duration MAX_DOWN =
      Duration.ofMillis(Integer.getInteger("floe.faults.max-down-ms", 0));
  private static final long SEED = Long.getLong("floe.faults.seed", System.currentTimeMillis());
  private static final String REPLY_TIMEOUT =
      System.getProperty("floe.faults.reply-timeout", "PT10S");

  @TempDir static Path root;
  private static FaultCluster cluster;

  @BeforeAll
  static void startCluster() {
    // The Iceberg client logs every 409 it retries with a stack trace, and the HTTP client every
    // retry of a 5xx; the harness counts both. Less output also keeps surefire's channel light.
    quiet("org.apache.iceberg", Level.ERROR);
    quiet("org.apache.hc", Level.WARN);
    cluster =
        new FaultCluster(root, INSTANCES, Map.of("floe.reply-timeout", REPLY_TIMEOUT)).start();
  }

  private static void quiet(String logger, Level level) {
    ((Logger) LoggerFactory.getLogger(logger)).setLevel(level);
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void fiftyConcurrentDuplicatesOfAKeyedCommitHaveOneEffectAndIdenticalAnswers() throws Exception {
    KeyedCommits keyed = new KeyedCommits(cluster, "faults_keyed", "duplicates");
    KeyedCommits.Result result = keyed.sendConcurrentDuplicates(50);

    assertThat(result.statuses()).as("statuses").containsOnly(200);
    assertThat(result.bodies()).as("answers").hasSize(50).containsOnly(result.bodies().get(0));
    assertThat(result.servedBy()).as("instances that answered").hasSize(INSTANCES);
    assertThat(result.snapshotsAfter()).isEqualTo(result.snapshotsBefore() + 1);
    assertThat(result.sequenceAfter()).isEqualTo(result.sequenceBefore() + 1);
    assertThat(result.currentAfter()).isEqualTo(result.addedSnapshotId());
    assertThat(result.committedEvents()).as("floe.table.committed events").isEqualTo(1);
  }

  @Test
  @Order(2)
  void aKeyedCommitWhoseAnswerWasDroppedIsReplayedByAnotherInstance() throws Exception {
    Assumptions.assumeTrue(INSTANCES > 1, "needs a second instance to retry against");
    KeyedCommits keyed = new KeyedCommits(cluster, "faults_keyed", "dropped");
    KeyedCommits.DroppedResult result = keyed.dropAnswerThenRetryElsewhere();

    assertThat(result.retryStatus()).isEqualTo(200);
    assertThat(result.retryMetadataLocation())
        .as("the retry answers the first attempt's metadata")
        .isEqualTo(result.metadataLocationAfterFirst());
    assertThat(result.secondRetryBody()).isEqualTo(result.retryBody());
    assertThat(result.snapshotsAfter()).isEqualTo(result.snapshotsBefore() + 1);
    assertThat(result.committedEvents()).as("floe.table.committed events").isEqualTo(1);
  }

  @Test
  @Order(3)
  void acknowledgedCommitsSurviveSigkillsOfInstancesUnderLoad() throws Exception {
    Assumptions.assumeTrue(KILLS > 0, "floe.faults.kills=0: no instance kills asked for");
    FaultRun.Result result =
        new FaultRun(
                cluster,
                new FaultRun.Settings(
                    "instance-kills", WRITERS, TABLES, MIXED_WRITERS, LOAD, PAUSE, MAX_DOWN, SEED),
                FaultRun.singleBroker(cluster, KILLS, 0, MAX_DOWN))
            .run();
    assertClean(result);
    assertThat(result.figures().get("instance-faults")).isEqualTo(String.valueOf(KILLS));
  }

  @Test
  @Order(4)
  void acknowledgedCommitsSurviveBrokerRestartsUnderLoad() throws Exception {
    Assumptions.assumeTrue(
        BROKER_RESTARTS > 0, "floe.faults.broker-restarts=0: no broker restarts asked for");
    FaultRun.Result result =
        new FaultRun(
                cluster,
                new FaultRun.Settings(
                    "broker-restarts",
                    WRITERS,
                    TABLES,
                    MIXED_WRITERS,
                    LOAD,
                    PAUSE,
                    MAX_DOWN,
                    SEED + 1),
                FaultRun.singleBroker(cluster, 0, BROKER_RESTARTS, MAX_DOWN))
            .run();
    assertClean(result);
    assertThat(result.figures().get("broker-faults")).isEqualTo(String.valueOf(BROKER_RESTARTS));
  }

  /** Every count that must be 0 is, and the run acknowledged and checked commits. */
  static void assertClean(FaultRun.Result result) {
    LineageChecker.Report report = result.report();
    assertThat(result.problems()).as("harness problems").isEmpty();
    assertThat(report.problems()).as("lineage problems").isEmpty();
    assertThat(result.readYourWrites().examples()).as("read-your-writes violations").isEmpty();
    assertThat(result.events().problems()).as("event log problems").isEmpty();
    assertThat(result.mixed().problems()).as("creates, renames and transactions").isEmpty();
    assertThat(result.refusals())
        .as("commits answered with an error other than 409 or 5xx")
        .isEmpty();
    for (String failure : FaultFigures.FAILURES) {
      assertThat(result.figures().get(failure)).as(failure).isEqualTo("0");
    }
    assertThat(Long.parseLong(result.figures().get("acknowledged")))
        .as("acknowledged commits")
        .isPositive();
    assertThat(result.readYourWrites().trials()).as("read-your-writes trials").isPositive();
    if (Integer.parseInt(result.figures().get("mixed-writers")) > 0) {
      assertThat(result.mixed().acknowledged())
          .as("creates, renames and transactions acknowledged")
          .isPositive();
    }
  }
}
