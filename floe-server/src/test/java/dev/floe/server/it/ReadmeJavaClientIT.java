package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java program, as written, in a child JVM on exactly the class path the README lists
 * (iceberg-core and the Hadoop client, resolved by module test-java-client), against a server at
 * its defaults. Only the server's address and the token file's path are put in for the README's.
 */
class ReadmeJavaClientIT {
  private static final String README_URI = "http://localhost:8181";
  private static final String README_TOKEN = "floe-data/admin.token";

  @TempDir Path dir;

  @Test
  void theReadmesJavaProgramRunsOnTheClassPathTheReadmeLists() throws Exception {
    String program = readmeProgram();
    assertThat(program).contains(README_URI, README_TOKEN);
    try (FloeProcess floe = new FloeProcess(dir.resolve("data"), Map.of("floe.auth", "token"))) {
      floe.start();
      Path source = dir.resolve("FloeQuickstart.java");
      Files.writeString(
          source,
          program
              .replace(README_URI, floe.uri())
              .replace(
                  README_TOKEN, floe.dataDir().resolve("admin.token").toAbsolutePath().toString()));
      Path output = dir.resolve("output.txt");
      Process java =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  classpath(),
                  source.toString())
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      assertThat(java.waitFor(180, TimeUnit.SECONDS)).as("the program ended").isTrue();
      String printed = Files.readString(output);
      assertThat(java.exitValue()).as(printed).isZero();

      JsonNode table =
          AuthHttp.expect(
                  200,
                  floe.uri(),
                  "GET",
                  "/v1/default/namespaces/quickstart/tables/events",
                  floe.adminToken(),
                  null)
              .json();
      assertThat(table.path("metadata").path("snapshots"))
          .as("the append the program committed, its manifests written by the client's FileIO")
          .hasSize(1);
      String manifestList =
          table.path("metadata").path("snapshots").get(0).path("manifest-list").asText();
      assertThat(Path.of(URI.create(manifestList))).exists();
    }
  }

  /** The README's Java block that declares {@code class FloeQuickstart}. */
  private static String readmeProgram() throws IOException {
    Path readme = Path.of("").toAbsolutePath();
    while (!Files.exists(readme.resolve("README.md"))) {
      readme = readme.getParent();
    }
    Matcher blocks =
        Pattern.compile("```java\n(.*?)```", Pattern.DOTALL)
            .matcher(Files.readString(readme.resolve("README.md")));
    while (blocks.find()) {
      if (blocks.group(1).contains("class FloeQuickstart")) {
        return blocks.group(1);
      }
    }
    throw new AssertionError("README.md has no Java block with class FloeQuickstart");
  }

  private static String classpath() throws IOException {
    try (InputStream in =
        ReadmeJavaClientIT.class
            .getClassLoader()
            .getResourceAsStream("floe-java-client.classpath")) {
      if (in == null) {
        throw new IllegalStateException(
            "No floe-java-client.classpath on the test class path: build module test-java-client");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }
}
