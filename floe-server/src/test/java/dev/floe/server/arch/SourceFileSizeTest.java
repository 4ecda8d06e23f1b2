package dev.floe.server.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main source file over {@value #MAX_LINES} lines: a file that grows past it holds more than one
 * operation or concern, and is split by what it does (docs/architecture.md).
 */
class SourceFileSizeTest {
  private static final int MAX_LINES = 400;

  @Test
  void noMainSourceFileIsOverTheLimit() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    assertThat(root.resolve("pom.xml")).as("the repository root").exists();
    List<Path> sources = new ArrayList<>();
    // Every module's main sources, nested modules (bench/peer) too.
    List<Path> mains;
    try (Stream<Path> dirs = Files.walk(root, 5)) {
      mains = dirs.filter(d -> d.endsWith(Path.of("src", "main", "java"))).toList();
    }
    for (Path main : mains) {
      try (Stream<Path> paths = Files.walk(main)) {
        paths.filter(p -> p.toString().endsWith(".java")).forEach(sources::add);
      }
    }
    assertThat(sources).as("main sources found").hasSizeGreaterThan(100);
    List<String> tooLong =
        sources.stream()
            .filter(p -> lines(p) > MAX_LINES)
            .map(p -> root.relativize(p) + " (" + lines(p) + " lines)")
            .toList();
    assertThat(tooLong).isEmpty();
  }

  private static long lines(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
