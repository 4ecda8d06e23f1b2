package dev.floe.processor.kafka;

import dev.floe.events.Topics;
import dev.floe.infra.config.FloeConfig;
import dev.floe.infra.kafka.CoordinatorReadiness;
import dev.floe.infra.kafka.HangingTransactions;
import dev.floe.infra.kafka.TakeoverFencing;
import dev.floe.infra.storage.MetadataFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the command processor (Kafka Streams) and waits until it runs: it waits for Kafka's
 * coordinators first, starts the processor again when a stream thread fails before the first
 * RUNNING, and aborts transactions Kafka left hanging, all within one start deadline.
 */
public final class ProcessorStarter {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessorStarter.class);
  static final Duration START_DEADLINE = Duration.ofSeconds(300);
  private static final Duration HANGING_CHECK = Duration.ofSeconds(10);

  /** How often, while a rebalance lasts, it looks again for transactions to abort (up to 5 min). */
  private static final Duration FENCING_EVERY = Duration.ofMillis(500);

  private static final int FENCING_ROUNDS = 600;

  private static final Duration HANGING_CHECK_WHILE_REBALANCING = Duration.ofSeconds(2);

  private final FloeConfig config;
  private final Topics topics;
  private final String bootstrapServers;
  private final MetadataFiles metadataFiles;
  private final AtomicBoolean fencingQueued = new AtomicBoolean();
  private final ExecutorService fencing =
      Executors.newSingleThreadExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "floe-takeover-fencing");
            thread.setDaemon(true);
            return thread;
          });

  public ProcessorStarter(
      FloeConfig config, Topics topics, String bootstrapServers, MetadataFiles metadataFiles) {
    this.config = config;
    this.topics = topics;
    this.bootstrapServers = bootstrapServers;
    this.metadataFiles = metadataFiles;
  }

  /**
   * Starts the processor and returns it once it is RUNNING.
   *
   * @param applicationServer this instance's {@code host:port}, for Kafka Streams' metadata
   * @throws IllegalStateException when it is not running within {@link #START_DEADLINE}; nothing of
   *     it is left running then
   */
  public KafkaStreams start(String applicationServer) {
    long deadline = System.nanoTime() + START_DEADLINE.toNanos();
    for (int attempt = 1; ; attempt++) {
      awaitCoordinators(deadline);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      KafkaStreams streams = newStreams(applicationServer, failure);
      KafkaStreams.State state;
      try {
        streams.start();
        state = awaitStarted(streams, deadline);
      } catch (RuntimeException e) {
        streams.close(Duration.ofSeconds(30));
        throw e;
      }
      if (state == KafkaStreams.State.RUNNING) {
        return streams;
      }
      streams.close(Duration.ofSeconds(30));
      if (failure.get() == null || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "The command processor did not start within "
                + START_DEADLINE.toSeconds()
                + " s: "
                + state
                + (failure.get() == null ? "" : " (last failure: " + failure.get() + ")"),
            failure.get());
      }
      LOG.warn(
          "The command processor failed while starting (attempt {}); starting it again",
          attempt,
          failure.get());
    }
  }

  /**
   * A stream thread that fails before the processor first runs stops the whole client, which {@link
   * #start} then starts again; after that, a failed thread is replaced. Why not replace it while
   * starting: the replacement is numbered after the failed thread, so it joins under another static
   * member id ({@code <instance id>-2}) while the failed one still holds its place in the group,
   * and the rebalance waits for that member's session or the rebalance timeout (5 minutes), on a
   * coordinator that has just failed a request. A new client joins under the failed thread's own id
   * and takes its place at once. Seen at start: the group coordinator of a just-restarted broker
   * answering SyncGroup with COORDINATOR_LOAD_IN_PROGRESS, which the classic consumer does not
   * retry.
   */
  private KafkaStreams newStreams(String applicationServer, AtomicReference<Throwable> failure) {
    GroupCommit groupCommit = new GroupCommit();
    KafkaStreams created =
        new KafkaStreams(
            CatalogTopology.build(
                topics,
                metadataFiles,
                config.idempotencyKeyLifetime(),
                new FaultPoints(config.haltBefore()),
                groupCommit,
                config::recoveryPeriod),
            StreamsSettings.of(
                config, bootstrapServers, applicationServer, stableInstanceId(), groupCommit));
    AtomicBoolean ran = new AtomicBoolean();
    created.setStateListener(
        (now, before) -> {
          if (now == KafkaStreams.State.RUNNING) {
            ran.set(true);
          }
          if (now == KafkaStreams.State.RUNNING || now == KafkaStreams.State.REBALANCING) {
            fenceLeftInstances(created);
          }
        });
    created.setUncaughtExceptionHandler(
        e -> {
          if (!ran.get()) {
            LOG.error(
                "Stream thread failed while starting; stopping the processor to restart it", e);
            failure.set(e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
          }
          LOG.error("Stream thread failed; replacing it", e);
          return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
    return created;
  }

  /**
   * Waits for RUNNING, or for the client to stop (a failed start), or for the deadline. While it
   * waits, it looks for transactions Kafka left hanging (see {@link HangingTransactions}) every
   * {@code HANGING_CHECK} and aborts them: one keeps a stream task from ever starting.
   */
  private KafkaStreams.State awaitStarted(KafkaStreams streams, long deadline) {
    long nextCheck = System.nanoTime() + HANGING_CHECK.toNanos();
    while (true) {
      KafkaStreams.State state = streams.state();
      if (state == KafkaStreams.State.RUNNING
          || !state.isRunningOrRebalancing()
          || System.nanoTime() > deadline) {
        return state;
      }
      if (System.nanoTime() > nextCheck) {
        abortHangingTransactions(streams);
        nextCheck = System.nanoTime() + HANGING_CHECK.toNanos();
      }
      sleep(20);
    }
  }

  /**
   * The processor's transactional ids are {@code <application id>-<process id>-<thread index>}
   * (Kafka Streams, exactly_once_v2); its thread names are {@code <client id>-StreamThread-<index>}
   * with the default client id {@code <application id>-<process id>}.
   */
  private void abortHangingTransactions(KafkaStreams streams) {
    try {
      String clientId = null;
      // Throws when the client has just left RUNNING/REBALANCING; the next wait round sees why.
      for (var thread : streams.metadataForLocalThreads()) {
        int at = thread.threadName().lastIndexOf("-StreamThread-");
        if (at > 0) {
          clientId = thread.threadName().substring(0, at);
        }
      }
      if (clientId == null) {
        return;
      }
      try (Admin admin =
          Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
        HangingTransactions.abort(
            admin,
            clientId + "-",
            name -> name.startsWith(topics.prefix()),
            Duration.ofSeconds(10));
      }
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.warn("Could not look for hanging Kafka transactions while starting: {}", e.toString());
    }
  }

  /**
   * A transaction left hanging in a partition's log (see {@link HangingTransactions}) by a broker
   * that failed while writing its markers: any of the processor's, since such a transaction is
   * fenced whoever wrote it. It holds every {@code read_committed} reader and restore of its
   * partition, so a task taken over never finishes restoring; seen after a single broker's
   * restart, where it held the commits of a taken-over task for 140 s.
   */
  private void abortHangingTransactions(Admin admin) throws Exception {
    HangingTransactions.abort(
        admin,
        topics.applicationId() + "-",
        name -> name.startsWith(topics.prefix()),
        Duration.ofSeconds(10));
  }

  /**
   * When a rebalance begins, while it lasts and once the processor runs again, aborts the
   * transactions that instances no longer in the group left open ({@link TakeoverFencing}), on a
   * thread of its own (the state listener runs on the stream thread). While it rebalances too: a
   * task taken over cannot start until the committed offsets of its input are stable, and a dead or
   * frozen owner's open transaction holds its offsets pending, so waiting for RUNNING would wait
   * for that transaction's timeout. A rebalance that lasts longer than {@link
   * #HANGING_CHECK_WHILE_REBALANCING} also looks for hanging transactions, every as long.
   */
  private void fenceLeftInstances(KafkaStreams streams) {
    if (!fencingQueued.compareAndSet(false, true)) {
      return;
    }
    fencing.execute(
        () -> {
          fencingQueued.set(false);
          try (Admin admin =
              Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            long hangingChecked = System.nanoTime();
            for (int round = 0; round < FENCING_ROUNDS; round++) {
              TakeoverFencing.fence(
                  admin, bootstrapServers, topics.applicationId(), Duration.ofSeconds(10));
              if (streams.state() != KafkaStreams.State.REBALANCING || fencingQueued.get()) {
                return;
              }
              if (System.nanoTime() - hangingChecked > HANGING_CHECK_WHILE_REBALANCING.toNanos()) {
                abortHangingTransactions(admin);
                hangingChecked = System.nanoTime();
              }
              Thread.sleep(FENCING_EVERY.toMillis());
            }
          } catch (Exception e) {
            if (e instanceof InterruptedException) {
              Thread.currentThread().interrupt();
            }
            LOG.warn(
                "Could not look for transactions left open by instances gone from the group: {}",
                e.toString());
          }
        });
  }

  /** Before joining the group: see {@link CoordinatorReadiness}. */
  private void awaitCoordinators(long deadline) {
    Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      CoordinatorReadiness.await(admin, topics.applicationId(), left);
    } catch (IllegalStateException e) {
      throw new IllegalStateException(
          "The command processor did not start within "
              + START_DEADLINE.toSeconds()
              + " s: "
              + e.getMessage(),
          e);
    }
  }

  /**
   * This data directory's id in the processor's consumer group (static membership): a restarted
   * instance takes its partitions back at once instead of waiting out the old member's session.
   * Each stream thread's {@code group.instance.id} is this id, a dash and the thread's index.
   */
  public String stableInstanceId() {
    Path file = config.dataDir().resolve("instance.id");
    try {
      if (Files.exists(file)) {
        return Files.readString(file).trim();
      }
      Files.createDirectories(config.dataDir());
      String id = "floe-" + UUID.randomUUID();
      Files.writeString(file, id);
      return id;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read or write " + file, e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while starting", e);
    }
  }
}
