package dev.floe.processor.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class GroupCommitTest {
  private static final TopicPartition COMMANDS_0 = new TopicPartition("floe.commands", 0);
  private static final TopicPartition STEPS_0 = new TopicPartition("floe.steps", 0);

  @Test
  void onlyThePollsLastRecordOfAPartitionAsksForTheCommit() {
    GroupCommit groupCommit = new GroupCommit();
    GroupCommit.Interceptor interceptor = new GroupCommit.Interceptor();
    interceptor.configure(Map.of(GroupCommit.CONFIG, groupCommit));

    interceptor.onConsume(records(COMMANDS_0, 10, 11, 12));

    assertThat(groupCommit.isLastPolled("floe.commands", 0, 10)).isFalse();
    assertThat(groupCommit.isLastPolled("floe.commands", 0, 11)).isFalse();
    assertThat(groupCommit.isLastPolled("floe.commands", 0, 12)).isTrue();
    // A partition no poll returned anything for: commit at once, as without group commit.
    assertThat(groupCommit.isLastPolled("floe.steps", 0, 3)).isTrue();
  }

  @Test
  void aLaterPollMovesTheLastRecordOnAndARewindMovesItBack() {
    GroupCommit groupCommit = new GroupCommit();
    groupCommit.polled(records(COMMANDS_0, 10, 11));
    groupCommit.polled(records(STEPS_0, 4));
    groupCommit.polled(records(COMMANDS_0, 12, 13));

    assertThat(groupCommit.isLastPolled("floe.commands", 0, 11)).isFalse();
    assertThat(groupCommit.isLastPolled("floe.commands", 0, 13)).isTrue();
    assertThat(groupCommit.isLastPolled("floe.steps", 0, 4)).isTrue();

    // An aborted transaction rewinds the partition to its committed offset: polled again.
    groupCommit.polled(records(COMMANDS_0, 10, 11));
    assertThat(groupCommit.isLastPolled("floe.commands", 0, 10)).isFalse();
    assertThat(groupCommit.isLastPolled("floe.commands", 0, 11)).isTrue();
  }

  @Test
  void theInterceptorRefusesAConsumerWithoutItsGroupCommit() {
    assertThatThrownBy(() -> new GroupCommit.Interceptor().configure(Map.of()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(GroupCommit.CONFIG);
  }

  private static ConsumerRecords<Object, Object> records(
      TopicPartition partition, long... offsets) {
    List<ConsumerRecord<Object, Object>> list =
        Arrays.stream(offsets)
            .mapToObj(
                offset ->
                    new ConsumerRecord<Object, Object>(
                        partition.topic(), partition.partition(), offset, "key", new byte[0]))
            .toList();
    return new ConsumerRecords<>(Map.of(partition, list), Map.of());
  }
}
