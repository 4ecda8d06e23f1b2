package dev.floe.infra.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;

/**
 * Takes a dead instance's stream threads out of the processor's group at once. Each thread is a
 * static member ({@code group.instance.id} {@code <instance id>-<thread index>}), which keeps its
 * partitions until its session ends, whether it is coming back or not; removing it (Kafka's
 * {@code LeaveGroup} on its behalf, KIP-345) starts the rebalance that moves them now. A removed
 * member that is in fact alive is told so at its next heartbeat and joins again: a rebalance, never
 * a correctness matter (its transactions are fenced by the group's generation).
 */
public final class StaticMembers {
  private StaticMembers() {}

  /**
   * Removes the members of {@code groupId} that are threads of {@code instanceId}.
   *
   * @return the group instance ids removed (none when the group holds none of them any more)
   */
  public static List<String> remove(
      Admin admin, String groupId, String instanceId, Duration timeout)
      throws ExecutionException, InterruptedException, TimeoutException {
    long ms = timeout.toMillis();
    ConsumerGroupDescription group =
        admin
            .describeConsumerGroups(List.of(groupId))
            .all()
            .get(ms, TimeUnit.MILLISECONDS)
            .get(groupId);
    List<String> present = new ArrayList<>();
    for (MemberDescription member : group.members()) {
      member.groupInstanceId().ifPresent(present::add);
    }
    List<String> threads = threadsOf(present, instanceId);
    if (threads.isEmpty()) {
      return threads;
    }
    List<MemberToRemove> members = threads.stream().map(MemberToRemove::new).toList();
    admin
        .removeMembersFromConsumerGroup(groupId, new RemoveMembersFromConsumerGroupOptions(members))
        .all()
        .get(ms, TimeUnit.MILLISECONDS);
    return threads;
  }

  /** The group instance ids among {@code present} that belong to {@code instanceId}'s threads. */
  static List<String> threadsOf(Collection<String> present, String instanceId) {
    String prefix = instanceId + "-";
    List<String> threads = new ArrayList<>();
    for (String id : present) {
      if (id.startsWith(prefix) && isIndex(id.substring(prefix.length()))) {
        threads.add(id);
      }
    }
    threads.sort(null);
    return threads;
  }

  private static boolean isIndex(String text) {
    return !text.isEmpty() && text.chars().allMatch(Character::isDigit);
  }
}
