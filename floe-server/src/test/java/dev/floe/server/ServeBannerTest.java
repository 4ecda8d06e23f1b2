package dev.floe.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.config.FloeConfig;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ServeBannerTest {
  @Test
  void theBannerListsEveryWarehouseTheDefaultFirst() {
    Properties props = new Properties();
    props.setProperty("floe.data-dir", "/tmp/floe-banner");
    props.setProperty("floe.warehouse.zeta.location", "file:///lake/zeta");
    props.setProperty("floe.warehouse.alpha.location", "file:///lake/alpha");
    props.setProperty("floe.auth", "none");

    String banner = ServeCommand.banner(FloeConfig.fromProperties(props), 8181);

    assertThat(banner)
        .contains(
            "  warehouse:      default -> file:///tmp/floe-banner/warehouse\n"
                + "  warehouse:      alpha -> file:///lake/alpha\n"
                + "  warehouse:      zeta -> file:///lake/zeta\n"
                + "\n"
                + "  AUTHENTICATION IS OFF");
  }
}
