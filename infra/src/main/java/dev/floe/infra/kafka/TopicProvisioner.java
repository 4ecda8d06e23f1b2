package dev.floe.infra.kafka;

import dev.floe.events.RecordLimits;
import dev.floe.events.Topics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates Floe's topics at start when they are missing. Kafka Streams creates its own changelog
 * topics with the same partition count, because they follow the input topics.
 */
public final class TopicProvisioner {
  private static final Logger LOG = LoggerFactory.getLogger(TopicProvisioner.class);

  private TopicProvisioner() {}

  private static Map<String, String> configs(String retentionMs) {
    return Map.of(
        TopicConfig.RETENTION_MS_CONFIG,
        retentionMs,
        TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
        String.valueOf(RecordLimits.MAX_REQUEST_BYTES));
  }

  /**
   * Topics made by an older Floe (or by Kafka Streams before it was told) keep Kafka's 1 MB record
   * limit: raise it, so a table with a large metadata document can be committed to.
   */
  private static void raiseRecordLimit(Admin admin, Set<String> existing, Topics topics)
      throws InterruptedException, ExecutionException, TimeoutException {
    Map<ConfigResource, Collection<AlterConfigOp>> alter = new HashMap<>();
    for (String name : existing) {
      if (name.startsWith(topics.prefix()) || name.startsWith(topics.applicationId() + "-")) {
        alter.put(
            new ConfigResource(ConfigResource.Type.TOPIC, name),
            List.of(
                new AlterConfigOp(
                    new ConfigEntry(
                        TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                        String.valueOf(RecordLimits.MAX_REQUEST_BYTES)),
                    AlterConfigOp.OpType.SET)));
      }
    }
    if (!alter.isEmpty()) {
      admin.incrementalAlterConfigs(alter).all().get(30, TimeUnit.SECONDS);
    }
  }

  public static void ensureTopics(
      Admin admin, Topics topics, int partitions, short replicationFactor) {
    Map<String, Map<String, String>> wanted =
        Map.of(
            topics.commands(), configs(String.valueOf(7 * 86_400_000L)),
            topics.steps(), configs(String.valueOf(7 * 86_400_000L)),
            // The log of record is kept forever: replaying it rebuilds the catalog.
            topics.events(), configs("-1"),
            // Audit records are kept a year by default; operators set their own retention.
            topics.audit(), configs(String.valueOf(365 * 86_400_000L)),
            topics.dataAccess(), configs(String.valueOf(365 * 86_400_000L)),
            topics.replies(), configs(String.valueOf(3_600_000L)));
    try {
      Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
      List<NewTopic> missing = new ArrayList<>();
      wanted.forEach(
          (name, configs) -> {
            if (!existing.contains(name)) {
              missing.add(new NewTopic(name, partitions, replicationFactor).configs(configs));
            }
          });
      raiseRecordLimit(admin, existing, topics);
      if (missing.isEmpty()) {
        return;
      }
      admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
      LOG.info(
          "Created topics {} with {} partitions",
          missing.stream().map(NewTopic::name).toList(),
          partitions);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof TopicExistsException) {
        return; // another instance created them first
      }
      throw new IllegalStateException("Cannot create Floe's topics", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while creating topics", e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka did not answer within 30 s while creating topics", e);
    }
  }
}
