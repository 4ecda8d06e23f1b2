package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.Browser;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The web console in a real browser (Debian's chromium), on the real server. */
class ConsoleIT {
  @TempDir static Path dir;
  private static FloeProcess floe;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Browser.available(),
        "No chromium and chromedriver in /usr/bin: .ci/run installs them (apt chromium"
            + " chromium-driver)");
    floe = new FloeProcess(dir.resolve("data"), Map.of("floe.auth", "token")).start();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (floe != null) {
      floe.close();
    }
  }

  @Test
  void theConsoleIsServedAtUi() throws Exception {
    try (Browser browser = new Browser()) {
      browser.open(floe.uri() + "/");
      assertThat(browser.driver().getCurrentUrl()).endsWith("/ui/");
      assertThat(browser.driver().getTitle()).contains("Floe");
      browser.screenshot(Path.of("target", "console", "smoke.png"));
      assertThat(browser.consoleErrors()).isEmpty();
    }
  }
}
