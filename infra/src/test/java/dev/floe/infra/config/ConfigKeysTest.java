package dev.floe.infra.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ConfigKeysTest {
  @Test
  void aTypoIsRefusedWithTheKeyMeant() {
    assertThatThrownBy(() -> FloeConfig.fromProperties(props(Map.of("floe.prot", "8182"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Unknown configuration key floe.prot: did you mean floe.port?");
    assertThatThrownBy(
            () ->
                FloeConfig.fromProperties(
                    props(Map.of("floe.warehouse.lake.recovery-perod", "P1D"))))
        .hasMessageContaining("did you mean floe.warehouse.lake.recovery-period?");
    assertThatThrownBy(
            () ->
                FloeConfig.fromProperties(
                    props(Map.of("floe.storage-profile.cold.s3.regoin", "eu-west-1"))))
        .hasMessageContaining("did you mean floe.storage-profile.cold.s3.region?");
  }

  @Test
  void aKeyFarFromEveryKnownOneIsRefusedWithoutAGuess() {
    assertThatThrownBy(
            () -> FloeConfig.fromProperties(props(Map.of("floe.something-else-entirely", "1"))))
        .hasMessage(
            "Unknown configuration key floe.something-else-entirely (README.md, Configuration,"
                + " lists every key)");
  }

  @Test
  void everyDocumentedShapeOfKeyIsKnownAndOtherKeysAreLeftAlone() {
    assertThat(ConfigKeys.known("floe.port")).isTrue();
    assertThat(ConfigKeys.known("floe.warehouse.lake.location")).isTrue();
    assertThat(ConfigKeys.known("floe.warehouse.lake.recovery-period")).isTrue();
    assertThat(ConfigKeys.known("floe.storage-profile.cold.gcs.project-id")).isTrue();
    assertThat(ConfigKeys.known("floe.storage-profile.cold.recovery-period"))
        .as("a storage profile has no recovery period")
        .isFalse();
    assertThat(ConfigKeys.known("floe.warehouse..location")).isFalse();
    FloeConfig.fromProperties(
        props(Map.of("floe.warehouse.lake.location", "file:///tmp/lake", "java.home", "x")));
  }

  private static Properties props(Map<String, String> values) {
    Properties props = new Properties();
    values.forEach(props::setProperty);
    return props;
  }
}
