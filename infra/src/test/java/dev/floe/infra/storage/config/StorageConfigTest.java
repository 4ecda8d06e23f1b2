package dev.floe.infra.storage.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class StorageConfigTest {
  private static Properties props(String... pairs) {
    Properties props = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      props.setProperty(pairs[i], pairs[i + 1]);
    }
    return props;
  }

  @Test
  void readsWarehouseAndProfileStorageFromTheSameProperties() {
    StorageConfig config =
        StorageConfig.fromProperties(
            props(
                "floe.warehouse.lake.s3.region", "eu-west-1",
                "floe.warehouse.lake.s3.endpoint", "http://minio:9000",
                "floe.warehouse.lake.s3.path-style-access", "true",
                "floe.warehouse.lake.s3.role-arn", "arn:aws:iam::1:role/r",
                "floe.warehouse.lake.vending.enabled", "true",
                "floe.warehouse.lake.vending.duration", "PT30M",
                "floe.warehouse.lake.io-timeout", "PT3S",
                "floe.warehouse.lake.self-check", "full",
                "floe.storage-profile.cold.location", "gs://cold/tables/",
                "floe.storage-profile.cold.gcs.project-id", "p1"),
            Map.of("lake", "s3://lake/warehouse", "default", "file:///tmp/wh"));

    StorageProfile lake = config.warehouse("lake");
    assertThat(lake.scheme()).isEqualTo(StorageProfile.Scheme.S3);
    assertThat(lake.s3().region()).isEqualTo("eu-west-1");
    assertThat(lake.s3().endpoint()).isEqualTo("http://minio:9000");
    assertThat(lake.s3().pathStyleAccess()).isTrue();
    assertThat(lake.s3().accessKeyId()).isNull();
    assertThat(lake.vending()).isEqualTo(new StorageProfile.Vending(true, Duration.ofMinutes(30)));
    assertThat(lake.ioTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(lake.selfCheck()).isEqualTo(StorageProfile.SelfCheck.FULL);
    assertThat(config.warehouse("default").scheme()).isEqualTo(StorageProfile.Scheme.FILE);
    StorageProfile cold = config.profile("cold").orElseThrow();
    assertThat(cold.root()).isEqualTo("gs://cold/tables");
    assertThat(cold.gcs().projectId()).isEqualTo("p1");
  }

  @Test
  void findsTheStorageOfALocationByItsLongestRootOnASlashBoundary() {
    StorageConfig config =
        StorageConfig.fromProperties(
            props("floe.storage-profile.inner.location", "s3://lake/warehouse/inner"),
            Map.of("lake", "s3://lake/warehouse"));
    assertThat(config.forLocation("s3://lake/warehouse/db/t").orElseThrow().name())
        .isEqualTo("lake");
    assertThat(config.forLocation("s3://lake/warehouse/inner/t").orElseThrow().name())
        .isEqualTo("inner");
    assertThat(config.forLocation("s3://lake/warehouse2/t")).isEmpty();
    assertThat(config.forLocation("s3://lake/warehouse/innerx/t").orElseThrow().name())
        .isEqualTo("lake");
  }

  @Test
  void writesAheadOnObjectStorageUnlessToldOtherwise() {
    StorageConfig config =
        StorageConfig.fromProperties(
            props(
                "floe.warehouse.nfs.write-ahead", "on",
                "floe.warehouse.slow.write-ahead", "OFF",
                "floe.storage-profile.gcs.location", "gs://cold/tables"),
            Map.of(
                "local", "file:///tmp/wh",
                "nfs", "file:///mnt/nfs/wh",
                "lake", "s3://lake/warehouse",
                "slow", "s3://slow/warehouse"));

    assertThat(config.warehouse("local").writesAhead()).isFalse();
    assertThat(config.warehouse("nfs").writesAhead()).isTrue();
    assertThat(config.warehouse("lake").writesAhead()).isTrue();
    assertThat(config.warehouse("slow").writesAhead()).isFalse();
    assertThat(config.profile("gcs").orElseThrow().writesAhead()).isTrue();
    assertThatThrownBy(
            () ->
                StorageConfig.fromProperties(
                    props("floe.warehouse.lake.write-ahead", "sometimes"),
                    Map.of("lake", "s3://lake/warehouse")))
        .hasMessageContaining("floe.warehouse.lake.");
  }

  @Test
  void trustsASeenMetadataFileForTenSecondsOnObjectStorageOnly() {
    StorageConfig config =
        StorageConfig.fromProperties(
            props(
                "floe.warehouse.nfs.metadata-exists-ttl", "PT2S",
                "floe.warehouse.strict.metadata-exists-ttl", "PT0S",
                "floe.storage-profile.gcs.location", "gs://cold/tables"),
            Map.of(
                "local", "file:///tmp/wh",
                "nfs", "file:///mnt/nfs/wh",
                "lake", "s3://lake/warehouse",
                "strict", "s3://strict/warehouse"));

    assertThat(config.warehouse("local").metadataExistsTtl()).isZero();
    assertThat(config.warehouse("nfs").metadataExistsTtl()).hasSeconds(2);
    assertThat(config.warehouse("lake").metadataExistsTtl()).hasSeconds(10);
    assertThat(config.warehouse("strict").metadataExistsTtl()).isZero();
    assertThat(config.profile("gcs").orElseThrow().metadataExistsTtl()).hasSeconds(10);
    assertThatThrownBy(
            () ->
                StorageConfig.fromProperties(
                    props("floe.warehouse.lake.metadata-exists-ttl", "-PT1S"),
                    Map.of("lake", "s3://lake/warehouse")))
        .hasMessageContaining("floe.warehouse.lake.")
        .hasMessageContaining("metadata-exists-ttl");
  }

  @Test
  void refusesIncompleteOrContradictoryStorage() {
    assertThatThrownBy(
            () ->
                StorageConfig.fromProperties(
                    props("floe.warehouse.lake.vending.enabled", "true"),
                    Map.of("lake", "s3://lake/warehouse")))
        .hasMessageContaining("s3.role-arn");
    assertThatThrownBy(
            () ->
                StorageConfig.fromProperties(
                    props("floe.warehouse.lake.s3.access-key-id", "AKIA"),
                    Map.of("lake", "s3://lake/warehouse")))
        .hasMessageContaining("must be set together");
    assertThatThrownBy(
            () ->
                StorageConfig.fromProperties(
                    props("floe.warehouse.local.vending.enabled", "true"),
                    Map.of("local", "file:///tmp/x")))
        .hasMessageContaining("file:");
    assertThatThrownBy(
            () -> StorageConfig.fromProperties(new Properties(), Map.of("x", "hdfs://nn/x")))
        .hasMessageContaining("Unsupported storage location");
  }

  @Test
  void neverPrintsTheSecretKey() {
    StorageProfile.S3Settings s3 =
        new StorageProfile.S3Settings(
            null, null, false, "AKIA", "very-secret", null, null, null, null);
    assertThat(s3.toString()).doesNotContain("very-secret").doesNotContain("AKIA");
  }
}
