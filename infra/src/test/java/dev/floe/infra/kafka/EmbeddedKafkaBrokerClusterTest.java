package dev.floe.infra.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class EmbeddedKafkaBrokerClusterTest {
  private static final String QUORUM = "1@localhost:9101,2@localhost:9102,3@localhost:9103";

  @Test
  void aNodeFindsItsControllerPortInTheQuorum() {
    EmbeddedKafkaBroker.ClusterMember member =
        new EmbeddedKafkaBroker.ClusterMember(2, QUORUM, "cluster");
    assertThat(member.voters()).isEqualTo(3);
    assertThat(member.ownControllerPort()).isEqualTo(9102);
    assertThat(new EmbeddedKafkaBroker.ClusterMember(4, QUORUM, "cluster").ownControllerPort())
        .isEqualTo(-1);
  }

  @Test
  void aNodeWhoseControllerPortIsNotItsQuorumEntryIsRefused() {
    EmbeddedKafkaBroker.ClusterMember member =
        new EmbeddedKafkaBroker.ClusterMember(2, QUORUM, "cluster");
    assertThatThrownBy(() -> new EmbeddedKafkaBroker(Path.of("unused"), 9092, 9101, member))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not in the controller quorum");
  }

  @Test
  void threeVotersReplicateThriceAndNeedTwoInSyncReplicas() {
    assertThat(EmbeddedKafkaBroker.replicationSettings(3))
        .containsEntry("offsets.topic.replication.factor", "3")
        .containsEntry("transaction.state.log.replication.factor", "3")
        .containsEntry("transaction.state.log.min.isr", "2")
        .containsEntry("default.replication.factor", "3")
        .containsEntry("min.insync.replicas", "2");
    assertThat(EmbeddedKafkaBroker.replicationSettings(1))
        .containsEntry("offsets.topic.replication.factor", "1")
        .containsEntry("min.insync.replicas", "1");
  }
}
