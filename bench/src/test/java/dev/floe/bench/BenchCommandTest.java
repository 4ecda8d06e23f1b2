package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BenchCommand}: a command line that would measure something else than asked is refused. */
class BenchCommandTest {
  private static final String TARGET = "floe=http://localhost:8181,default";

  private static BenchCommand parse(String... args) {
    return BenchCommand.parse(args);
  }

  @Test
  void readsTargetsSettingsAndWorkloads(@TempDir Path dir) throws Exception {
    Path tokenFile = dir.resolve("admin.token");
    Files.writeString(tokenFile, "secret-token\n");
    BenchCommand command =
        parse(
            "--target", "floe=http://localhost:8181,default,token-file=" + tokenFile + ",noisy=n",
            "--target", "peer=http://localhost:8182",
            "--duration", "3",
            "--warmup", "0",
            "--hot-writers", "2, 8",
            "--only", "load-table,hot-table-8",
            "--json", "out.json");

    assertThat(command.targets())
        .containsExactly(
            new BenchCommand.Target(
                "floe=http://localhost:8181,default,token-file=" + tokenFile + ",noisy=n",
                "floe",
                "http://localhost:8181",
                "default",
                "secret-token",
                List.of(),
                "n"),
            new BenchCommand.Target(
                "peer=http://localhost:8182",
                "peer",
                "http://localhost:8182",
                null,
                null,
                List.of(),
                null));
    assertThat(command.settings().durationSeconds()).isEqualTo(3);
    assertThat(command.settings().warmupSeconds()).isZero();
    assertThat(command.settings().clients()).isEqualTo(4);
    assertThat(command.settings().hotWriters()).containsExactly(2, 8);
    assertThat(command.only()).containsExactly("load-table", "hot-table-8");
    assertThat(command.options()).containsEntry("json", "out.json");
  }

  @Test
  void aTargetPrintsItsTokenFileNeverItsToken(@TempDir Path dir) throws Exception {
    Path tokenFile = dir.resolve("t");
    Files.writeString(tokenFile, "canary-token-77");
    BenchCommand command =
        parse("--target", "floe=http://localhost:8181,default,token-file=" + tokenFile);

    assertThat(command.targets().get(0).token()).isEqualTo("canary-token-77");
    assertThat(command.toString()).doesNotContain("canary-token-77").contains(tokenFile.toString());
  }

  @Test
  void aPidFileNamesTheServersProcessAndEventsTakesItsSizes(@TempDir Path dir) throws Exception {
    Path pidFile = dir.resolve("floe.pid");
    Files.writeString(pidFile, "4242\n");
    BenchCommand command =
        parse(
            "--target", "floe=http://localhost:8181,default,pid-file=" + pidFile,
            "--only", "events",
            "--events", "500",
            "--event-page-sizes", "5,50");

    assertThat(command.targets().get(0).serverPids()).containsExactly(4242L);
    assertThat(command.targets().get(0).token()).isNull();
    assertThat(command.only()).containsExactly("events");
    assertThat(command.settings().events()).isEqualTo(500);
    assertThat(command.settings().eventPageSizes()).containsExactly(5, 50);
    assertThat(parse("--target", TARGET).settings().eventPageSizes())
        .containsExactly(10, 100, 1000);
    assertThatThrownBy(() -> parse("--target", "floe=http://localhost:8181,default,pid=" + pidFile))
        .hasMessageContaining("Expected token-file=PATH (once), pid-file=PATH or noisy=WAREHOUSE");
  }

  @Test
  void aCatalogAndItsDatabaseAreOneTargetsProcesses(@TempDir Path dir) throws Exception {
    Path server = dir.resolve("peer.pid");
    Path database = dir.resolve("postgres.pid");
    Files.writeString(server, "100\n");
    Files.writeString(database, "200\n/var/lib/postgresql/data\n");

    BenchCommand command =
        parse(
            "--target", "peer=http://localhost:8182,,pid-file=" + server + ",pid-file=" + database);

    assertThat(command.targets().get(0).serverPids()).containsExactly(100L, 200L);
  }

  @Test
  void refusesAWorkloadItDoesNotHave() {
    assertThatThrownBy(() -> parse("--target", TARGET, "--only", "load-table,load-tables"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown workload load-tables")
        .hasMessageContaining("load-table-open-loop");
  }

  @Test
  void aHotTableWorkloadExistsOnlyForTheWritersAsked() {
    assertThatThrownBy(
            () -> parse("--target", TARGET, "--only", "hot-table-16", "--hot-writers", "4"))
        .hasMessageContaining("Unknown workload hot-table-16");
    assertThat(parse("--target", TARGET, "--only", "hot-table-4", "--hot-writers", "4").only())
        .containsExactly("hot-table-4");
  }

  @Test
  void refusesAnOptionItDoesNotHave() {
    assertThatThrownBy(() -> parse("--target", TARGET, "--durations", "6"))
        .hasMessage("Unknown option --durations");
  }

  @Test
  void refusesAnOptionWithoutAValue() {
    assertThatThrownBy(() -> parse("--target", TARGET, "--duration"))
        .hasMessage("Expected --option value, got --duration");
  }

  @Test
  void needsATarget() {
    assertThatThrownBy(() -> parse()).hasMessageContaining("at least one --target");
    assertThatThrownBy(() -> parse("--duration", "6"))
        .hasMessageContaining("at least one --target");
  }

  @Test
  void refusesAMalformedTarget() {
    for (String spec :
        List.of("http://localhost:8181", "=http://localhost:8181", "floe=localhost:8181")) {
      assertThatThrownBy(() -> parse("--target", spec))
          .as(spec)
          .hasMessageContaining("A --target is NAME=URI");
    }
    assertThatThrownBy(() -> parse("--target", "floe=http://h:1,default,token=abc"))
        .hasMessageContaining("Expected token-file=PATH");
  }

  @Test
  void refusesTwoTargetsOfOneName() {
    assertThatThrownBy(() -> parse("--target", TARGET, "--target", "floe=http://localhost:9000"))
        .hasMessage("Two targets are named floe");
  }

  @Test
  void refusesAnUnreadableTokenFile(@TempDir Path dir) {
    Path missing = dir.resolve("missing.token");
    assertThatThrownBy(
            () -> parse("--target", "floe=http://localhost:8181,default,token-file=" + missing))
        .hasMessageContaining("Cannot read the token file " + missing);
  }

  @Test
  void refusesNumbersThatAreNotOrAreTooSmall() {
    assertThatThrownBy(() -> parse("--target", TARGET, "--duration", "six"))
        .hasMessage("--duration takes whole numbers, got six");
    assertThatThrownBy(() -> parse("--target", TARGET, "--clients", "0"))
        .hasMessage("--clients must be at least 1, got 0");
    assertThatThrownBy(() -> parse("--target", TARGET, "--hot-writers", "4,0"))
        .hasMessage("--hot-writers must be at least 1, got 0");
    assertThat(parse("--target", TARGET, "--properties", "0").settings().propertiesPerNamespace())
        .isZero();
  }

  @Test
  void theUsageListsEveryWorkload() {
    assertThat(BenchCommand.usage())
        .contains("Usage: floe bench")
        .contains(String.join(", ", Workloads.names(List.of(4, 16, 32))));
  }
}
