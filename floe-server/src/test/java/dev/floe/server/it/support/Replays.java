package dev.floe.server.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** {@code floe replay} of a server under test, compared with its live catalog. */
public final class Replays {
  private Replays() {}

  /**
   * Replays the server's log into {@code out}, compares it with the live catalog, and asserts that
   * nothing differs; returns the report.
   */
  public static String matchLive(FloeProcess floe, String token, Path out)
      throws IOException, InterruptedException {
    ByteArrayOutputStream report = new ByteArrayOutputStream();
    int exit =
        Main.run(
            new String[] {
              "replay",
              "--data-dir",
              floe.dataDir().toString(),
              "--url",
              floe.uri(),
              "--token",
              token,
              "--out",
              out.toString()
            },
            new PrintStream(report, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    String text = report.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("0 differ").doesNotContain("DIFFERS");
    assertThat(exit).as(text).isZero();
    return text;
  }
}
