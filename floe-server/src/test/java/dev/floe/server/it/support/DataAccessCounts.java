package dev.floe.server.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.server.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** {@code floe.data-access} as {@code floe audit tail --data-access} prints it. */
public final class DataAccessCounts {
  private DataAccessCounts() {}

  /** {@code floe audit tail --data-access} of the whole topic, in this JVM. */
  public static List<String> lines(Path dataDir) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream printed = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int code =
        Main.run(
            new String[] {
              "audit",
              "tail",
              "--data-access",
              "--data-dir",
              dataDir.toString(),
              "--from-beginning",
              "--to-end"
            },
            printed,
            printed);
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(code).as(out).isZero();
    return out.lines().toList();
  }

  /** The signed and refused counts of the lines about one principal, table and operation. */
  public static long[] sums(List<String> lines, String about) {
    long[] sums = new long[2];
    for (String line : lines) {
      if (line.contains(about)) {
        sums[0] += Long.parseLong(line.replaceAll(".*signed=(\\d+).*", "$1"));
        sums[1] += Long.parseLong(line.replaceAll(".*refused=(\\d+).*", "$1"));
      }
    }
    return sums;
  }
}
