package dev.floe.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The console's files as shipped: small, self-contained (nothing loaded from another origin, so it
 * works offline and tells no third party who uses it), and within the policy {@link ConsoleFiles}
 * sends (no inline script or style).
 */
class ConsoleFilesTest {
  private static final Path UI = Path.of("src", "main", "resources", "ui");

  @Test
  void everythingShippedFitsIn300KilobytesGzipped() throws IOException {
    long gzipped = 0;
    for (Path file : files()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
        gzip.write(Files.readAllBytes(file));
      }
      gzipped += out.size();
    }
    assertThat(gzipped).as("bytes of the console, gzipped").isPositive().isLessThan(300 * 1024);
  }

  @Test
  void nothingIsLoadedFromElsewhereAndNothingIsInline() throws IOException {
    Pattern remote =
        Pattern.compile("(src|href)\\s*=\\s*[\"']?(https?:)?//", Pattern.CASE_INSENSITIVE);
    Pattern inlineScript =
        Pattern.compile("<script(?![^>]*\\bsrc=)[^>]*>", Pattern.CASE_INSENSITIVE);
    for (Path file : files()) {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      assertThat(remote.matcher(text).find()).as("%s loads from another origin", file).isFalse();
      assertThat(text).as("%s", file).doesNotContain("@import url(http").doesNotContain("eval(");
      if (file.toString().endsWith(".html")) {
        assertThat(inlineScript.matcher(text).find()).as("%s has an inline script", file).isFalse();
        assertThat(text)
            .as("%s has inline style", file)
            .doesNotContain("<style")
            .doesNotContain(" style=\"");
      }
    }
  }

  @Test
  void everyFileTheConsoleNamesIsThereAndServable() throws IOException {
    Path index = UI.resolve("index.html");
    assertThat(index).exists();
    Pattern local = Pattern.compile("(?:src|href)=\"([^\"#:?]+)\"");
    Pattern imports = Pattern.compile("(?:import|from)\\s*[\"']\\./([^\"']+)[\"']");
    for (Path file : files()) {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      Matcher m = (file.toString().endsWith(".js") ? imports : local).matcher(text);
      while (m.find()) {
        String name = m.group(1);
        assertThat(UI.resolve(name)).as("%s names %s", file.getFileName(), name).exists();
        assertThat(name)
            .as("a name ConsoleFiles serves")
            .matches("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*\\.(html|js|css|svg|png|ico)");
      }
    }
  }

  private static List<Path> files() throws IOException {
    try (Stream<Path> files = Files.list(UI)) {
      return files.filter(Files::isRegularFile).sorted().toList();
    }
  }
}
