package dev.floe.infra.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class MaintenanceConfigTest {
  private static MaintenanceConfig config(String... keysAndValues) {
    Properties props = new Properties();
    props.setProperty("floe.data-dir", "target/floe-config-test");
    for (int i = 0; i < keysAndValues.length; i += 2) {
      props.setProperty(keysAndValues[i], keysAndValues[i + 1]);
    }
    return FloeConfig.fromProperties(props).maintenance();
  }

  @Test
  void nothingIsMaintainedUnlessAWarehouseTurnsItOn() {
    MaintenanceConfig config = config();
    assertThat(config.interval()).isEqualTo(Duration.ofHours(1));
    MaintenanceConfig.Decision decision =
        config.decide("default", Map.of(MaintenanceConfig.TABLE_PROPERTY, "true"));
    assertThat(decision.scheduled()).isFalse();
    assertThat(decision.because()).isEqualTo("floe.warehouse.default.maintenance=off");
  }

  @Test
  void optedInTakesTablesThatSayTrueAndAllTakesTablesThatDoNotSayFalse() {
    MaintenanceConfig config =
        config(
            "floe.warehouse.default.maintenance", "opted-in",
            "floe.warehouse.lake.location", "file:///tmp/lake",
            "floe.warehouse.lake.maintenance", "all",
            "floe.maintenance.interval", "PT10M");
    String property = MaintenanceConfig.TABLE_PROPERTY;

    assertThat(config.interval()).isEqualTo(Duration.ofMinutes(10));
    assertThat(config.decide("default", Map.of(property, "TRUE")).scheduled()).isTrue();
    assertThat(config.decide("default", Map.of(property, "yes")).scheduled()).isFalse();
    assertThat(config.decide("default", Map.of()).because())
        .isEqualTo(
            "floe.warehouse.default.maintenance=opted-in and floe.maintenance.enabled is not true");
    assertThat(config.decide("lake", Map.of()).scheduled()).isTrue();
    assertThat(config.decide("lake", Map.of(property, "false")).because())
        .isEqualTo("floe.maintenance.enabled=false");
    assertThat(config.decide("other", Map.of(property, "true")).scheduled()).isFalse();
  }

  @Test
  void aBadModeOrIntervalIsRefusedNamingItsKey() {
    assertThatThrownBy(() -> config("floe.warehouse.default.maintenance", "on"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("floe.warehouse.default.maintenance must be off, opted-in or all");
    assertThatThrownBy(() -> config("floe.maintenance.interval", "PT0S"))
        .hasMessageContaining("floe.maintenance.interval");
    assertThatThrownBy(() -> config("floe.maintenance.interval", "hourly"))
        .hasMessageContaining("floe.maintenance.interval");
  }
}
