package dev.floe.server.it.support;

import dev.floe.infra.testing.FloeProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * The faults of a three-node cluster ({@link ThreeNodeCluster}) for a {@link FaultRun}, each
 * repaired before it returns: a broker repaired is back in every partition's in-sync replicas, so
 * the next fault never finds the cluster short of a replica.
 */
public final class ClusterFaults {
  private static final Duration REJOIN = Duration.ofSeconds(180);
  private static final Duration SETTLE = Duration.ofSeconds(5);

  /**
   * How many of each fault (and of {@link FaultRun#baseline()}s), how long a killed process stays
   * down at most, and the pauses.
   */
  public record Counts(
      int instanceKills,
      int instancePauses,
      int brokerKills,
      int controllerKills,
      int brokerPauses,
      int baselines,
      Duration maxDown,
      Duration instancePause,
      Duration brokerPause) {}

  private ClusterFaults() {}

  /** Every fault asked for, in an order shuffled by {@code seed}. */
  public static List<FaultRun.Injection> schedule(
      ThreeNodeCluster cluster, Counts counts, long seed) {
    List<FaultRun.Injection> faults = new ArrayList<>();
    for (int i = 0; i < counts.instanceKills(); i++) {
      faults.add(instanceKill(cluster, counts.maxDown()));
    }
    for (int i = 0; i < counts.instancePauses(); i++) {
      faults.add(instancePause(cluster, counts.instancePause()));
    }
    for (int i = 0; i < counts.brokerKills(); i++) {
      faults.add(brokerKill(cluster, counts.maxDown()));
    }
    for (int i = 0; i < counts.controllerKills(); i++) {
      faults.add(controllerKill(cluster, counts.maxDown()));
    }
    for (int i = 0; i < counts.brokerPauses(); i++) {
      faults.add(brokerPause(cluster, counts.brokerPause()));
    }
    for (int i = 0; i < counts.baselines(); i++) {
      faults.add(FaultRun.baseline());
    }
    Collections.shuffle(faults, new Random(seed));
    return faults;
  }

  /** SIGKILL of a random instance, restarted after a random time up to {@code maxDown}. */
  static FaultRun.Injection instanceKill(ThreeNodeCluster cluster, Duration maxDown) {
    return new FaultRun.Injection(
        FaultRun.INSTANCE,
        random -> {
          int victim = random.nextInt(cluster.size());
          FloeProcess instance = cluster.instance(victim);
          instance.kill();
          long down = FaultRun.stayDown(random, maxDown);
          instance.start();
          return "SIGKILL instance " + victim + ", down " + down + " ms";
        });
  }

  /**
   * A long GC pause: SIGSTOP of a random instance for {@code pause} (past its session timeout, so
   * its partitions move to the others), then SIGCONT. The paused instance comes back a zombie that
   * still believes it owns its partitions until it hears otherwise.
   */
  static FaultRun.Injection instancePause(ThreeNodeCluster cluster, Duration pause) {
    return new FaultRun.Injection(
        FaultRun.INSTANCE,
        random -> {
          int victim = random.nextInt(cluster.size());
          long pid = cluster.instance(victim).pid();
          ThreeNodeCluster.signal(pid, "STOP");
          try {
            Thread.sleep(pause.toMillis());
          } finally {
            ThreeNodeCluster.signal(pid, "CONT");
          }
          return "SIGSTOP instance " + victim + " for " + pause.toMillis() + " ms, then SIGCONT";
        });
  }

  /** SIGKILL of a random broker leading partitions of floe.commands or floe.events. */
  static FaultRun.Injection brokerKill(ThreeNodeCluster cluster, Duration maxDown) {
    return new FaultRun.Injection(
        FaultRun.BROKER,
        random -> {
          int victim = pick(random, leaders(cluster));
          cluster.killBroker(victim);
          long down = FaultRun.stayDown(random, maxDown);
          rejoin(cluster, victim);
          return "SIGKILL broker "
              + victim
              + " (a leader of floe.commands/floe.events), down "
              + down
              + " ms";
        });
  }

  /** SIGKILL of the active KRaft controller (a broker too). */
  static FaultRun.Injection controllerKill(ThreeNodeCluster cluster, Duration maxDown) {
    return new FaultRun.Injection(
        FaultRun.BROKER,
        random -> {
          int victim = cluster.activeController();
          cluster.killBroker(victim);
          long down = FaultRun.stayDown(random, maxDown);
          rejoin(cluster, victim);
          return "SIGKILL node " + victim + " (the active controller), down " + down + " ms";
        });
  }

  /**
   * A grey failure: SIGSTOP of a broker leading partitions of floe.commands or floe.events for
   * {@code pause}, then SIGCONT; it rejoins and catches up.
   */
  static FaultRun.Injection brokerPause(ThreeNodeCluster cluster, Duration pause) {
    return new FaultRun.Injection(
        FaultRun.BROKER,
        random -> {
          int victim = pick(random, leaders(cluster));
          long pid = cluster.brokerPid(victim);
          ThreeNodeCluster.signal(pid, "STOP");
          try {
            Thread.sleep(pause.toMillis());
          } finally {
            ThreeNodeCluster.signal(pid, "CONT");
          }
          Thread.sleep(SETTLE.toMillis());
          cluster.awaitBrokers(3, REJOIN);
          cluster.awaitFullIsr(REJOIN);
          return "SIGSTOP broker " + victim + " for " + pause.toMillis() + " ms, then SIGCONT";
        });
  }

  /**
   * Restarts node {@code node} and waits until it is back in every ISR. The controller fences a
   * dead broker (and takes it out of the ISRs) only when its 3 s session ends; so it first waits
   * that out, else the check could pass before the ISRs even shrank.
   */
  private static void rejoin(ThreeNodeCluster cluster, int node) throws InterruptedException {
    cluster.startBroker(node);
    Thread.sleep(SETTLE.toMillis());
    cluster.awaitBrokers(3, REJOIN);
    cluster.awaitFullIsr(REJOIN);
  }

  private static Set<Integer> leaders(ThreeNodeCluster cluster) throws Exception {
    Set<Integer> leaders = new TreeSet<>(cluster.leadersOf("floe.commands"));
    leaders.addAll(cluster.leadersOf("floe.events"));
    return leaders;
  }

  private static int pick(Random random, Set<Integer> nodes) {
    List<Integer> list = new ArrayList<>(nodes);
    return list.get(random.nextInt(list.size()));
  }
}
