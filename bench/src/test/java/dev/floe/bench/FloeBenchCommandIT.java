package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.config.FloeConfig;
import dev.floe.infra.testing.FreePorts;
import dev.floe.server.FloeServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/floe bench}, as a user runs it, against a real Floe server (embedded Kafka, access
 * control on, started in this JVM): the workloads asked for are measured through the token in the
 * token file, and a command line with a misspelt workload is refused before anything is measured.
 */
class FloeBenchCommandIT {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @TempDir static Path dir;
  private static FloeServer floe;
  private static int port;

  @BeforeAll
  static void startFloe() throws Exception {
    Properties config = new Properties();
    config.setProperty("floe.port", "0");
    config.setProperty("floe.data-dir", dir.resolve("floe").toString());
    floe = FloeServer.start(FloeConfig.fromProperties(config));
    port = floe.port();
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest ready =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/health/ready")).build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
      assertThat(System.nanoTime()).as("floe became ready within 120 s").isLessThan(deadline);
      Thread.sleep(250);
    }
  }

  @AfterAll
  static void stopFloe() {
    if (floe != null) {
      floe.close();
    }
  }

  private record Run(int exitCode, String output) {}

  private static Run floeBench(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(ROOT.resolve("bin/floe").toString(), "bench"));
    command.addAll(List.of(args));
    Path output = Files.createTempFile(dir, "bench", ".out");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
    // This build has just packaged the bench module; bin/floe must not start a build of its own.
    builder.environment().put("FLOE_SKIP_BUILD", "1");
    Process process = builder.start();
    assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("floe bench finished").isTrue();
    return new Run(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
  }

  private static String target() {
    return "floe=http://localhost:"
        + port
        + ",default,token-file="
        + dir.resolve("floe").resolve("admin.token");
  }

  @Test
  void measuresTheWorkloadsAskedForThroughTheTokenFile() throws Exception {
    Path json = dir.resolve("results.json");
    Run run =
        floeBench(
            "--target", target(),
            "--only", "load-table,commit-1",
            "--duration", "1",
            "--warmup", "0",
            "--width", "1",
            "--depth", "1",
            "--tables", "1",
            "--properties", "0",
            "--json", json.toString());

    assertThat(run.exitCode()).as(run.output()).isZero();
    JsonNode results =
        RestTarget.JSON.readTree(Files.readString(json)).path("results").path("floe");
    assertThat(results.fieldNames())
        .toIterable()
        .containsExactlyInAnyOrder("create-tree", "load-table", "commit-1");
    for (String workload : List.of("load-table", "commit-1")) {
      assertThat(results.path(workload).path("ops").asLong()).as(workload).isPositive();
      assertThat(results.path(workload).path("errors").asLong()).as(workload).isZero();
    }
    assertThat(run.output())
        .as("the token is read from its file, never printed")
        .doesNotContain(Files.readString(dir.resolve("floe").resolve("admin.token")).trim());
  }

  @Test
  void refusesAMisspeltWorkloadBeforeMeasuringAnything() throws Exception {
    Run run = floeBench("--target", target(), "--only", "load-tables");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.output())
        .contains("floe bench: Unknown workload load-tables")
        .contains("Usage: floe bench")
        .as("nothing was measured: no workload started")
        .doesNotContain("floe: create-tree");
  }

  @Test
  void saysWhichTargetItCannotReach() throws Exception {
    int closed = FreePorts.next();
    Run run = floeBench("--target", "gone=http://localhost:" + closed);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.output()).contains("floe bench: gone: cannot reach http://localhost:" + closed);
  }
}
