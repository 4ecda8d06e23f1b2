package dev.floe.server.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.server.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The {@code floe} command line run in the test JVM against a server, as a person would. */
public final class FloeCommand {
  private FloeCommand() {}

  /**
   * Runs {@code floe <args> --url <uri> --token <token>}, which must exit 0 without a stack trace;
   * answers what it printed.
   */
  public static String succeeds(String uri, String token, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--url", uri, "--token", token));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        Main.run(
            all.toArray(String[]::new),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String printed = err.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(printed).isZero();
    assertThat(printed).doesNotContain("\tat ");
    return out.toString(StandardCharsets.UTF_8);
  }
}
