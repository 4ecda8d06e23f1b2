package dev.floe.infra.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class FloeConfigRecoveryTest {
  private static FloeConfig config(String... keysAndValues) {
    Properties props = new Properties();
    props.setProperty("floe.data-dir", "target/floe-config-test");
    props.setProperty("floe.warehouse.lake.location", "file:///tmp/lake");
    for (int i = 0; i < keysAndValues.length; i += 2) {
      props.setProperty(keysAndValues[i], keysAndValues[i + 1]);
    }
    return FloeConfig.fromProperties(props);
  }

  @Test
  void aWarehouseKeepsDroppedEntitiesForSevenDaysUnlessItSaysOtherwise() {
    FloeConfig config =
        config(
            "floe.warehouse.lake.recovery-period",
            "PT0S",
            "floe.warehouse.x.location",
            "file:///x");

    assertThat(config.recoveryPeriod("default")).isEqualTo(Duration.ofDays(7));
    assertThat(config.recoveryPeriod("x")).isEqualTo(Duration.ofDays(7));
    assertThat(config.recoveryPeriod("lake")).isEqualTo(Duration.ZERO);
    assertThat(config.warehouses()).containsOnlyKeys("default", "lake", "x");
  }

  @Test
  void aPeriodThatIsNoDurationOrNegativeIsRefusedNamingItsKey() {
    assertThatThrownBy(() -> config("floe.warehouse.lake.recovery-period", "7 days"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("floe.warehouse.lake.recovery-period");
    assertThatThrownBy(() -> config("floe.warehouse.lake.recovery-period", "-PT1S"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("floe.warehouse.lake.recovery-period");
  }
}
