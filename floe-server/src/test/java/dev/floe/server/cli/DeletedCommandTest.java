package dev.floe.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.server.cli.DeletedCommand.Request;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code floe deleted}: which management request each command line sends, which command lines are
 * refused before anything is sent, and how answers are printed.
 */
class DeletedCommandTest {
  private static Request parse(String... args) {
    return DeletedCommand.request(args[0], DeletedCommand.flags(args));
  }

  @Test
  void listNamesTheNamespaceWithUnitSeparators() {
    Request request = parse("list", "--warehouse", "my wh", "--namespace", "a.b", "--json");
    assertThat(request.method()).isEqualTo("GET");
    assertThat(request.path())
        .isEqualTo("/management/v1/warehouses/my%20wh/deleted?namespace=a%1Fb");
    assertThat(request.json()).isTrue();
    assertThat(parse("list", "--warehouse", "w").path())
        .isEqualTo("/management/v1/warehouses/w/deleted");
    assertThat(parse("list", "--warehouse", "w").json()).isFalse();
  }

  @Test
  void restoreAndExpungeSendTheTarget() {
    Request restore =
        parse(
            "restore",
            "--warehouse",
            "w",
            "--namespace",
            "a.b",
            "--view",
            "v",
            "--uuid",
            "u",
            "--as",
            "v2");
    assertThat(restore.path()).isEqualTo("/management/v1/warehouses/w/deleted/restore");
    assertThat(restore.body().toString())
        .isEqualTo(
            "{\"kind\":\"view\",\"namespace\":[\"a\",\"b\"],\"name\":\"v\",\"uuid\":\"u\","
                + "\"as\":\"v2\"}");
    Request expunge =
        parse("expunge", "--warehouse", "w", "--namespace", "db", "--table", "t", "--retain-data");
    assertThat(expunge.path()).isEqualTo("/management/v1/warehouses/w/deleted/expunge");
    assertThat(expunge.body().toString())
        .isEqualTo(
            "{\"kind\":\"table\",\"namespace\":[\"db\"],\"name\":\"t\",\"retain-data\":true}");
    assertThat(
            parse("expunge", "--warehouse", "w", "--namespace", "db", "--table", "t")
                .body()
                .path("retain-data")
                .asBoolean())
        .isFalse();
  }

  @Test
  void badCommandLinesAreRefused() {
    for (List<String> args :
        List.of(
            List.of("undo", "--warehouse", "w"),
            List.of("list"),
            List.of("list", "--warehouse"),
            List.of("list", "--warehouse", "w", "--table", "t"),
            List.of("list", "--warehouse", "w", "extra"),
            List.of("restore", "--warehouse", "w", "--namespace", "db"),
            List.of(
                "restore", "--warehouse", "w", "--namespace", "db", "--table", "t", "--view", "v"),
            List.of("restore", "--warehouse", "w", "--table", "t"),
            List.of("restore", "--warehouse", "w", "--namespace", "a..b", "--table", "t"),
            List.of(
                "restore",
                "--warehouse",
                "w",
                "--namespace",
                "db",
                "--table",
                "t",
                "--retain-data"),
            List.of(
                "expunge", "--warehouse", "w", "--namespace", "db", "--table", "t", "--as", "x"),
            List.of(
                "expunge",
                "--warehouse",
                "w",
                "--warehouse",
                "x",
                "--namespace",
                "db",
                "--table",
                "t"))) {
      assertThatThrownBy(() -> parse(args.toArray(new String[0])))
          .as(String.join(" ", args))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void aBadCommandLineExitsWithTwoAndTheUsageBeforeAnyRequest() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        DeletedCommand.run(
            new String[] {
              "restore", "--warehouse", "w", "--namespace", "db", "--url", "http://localhost:1"
            },
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(exit).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("Give exactly one of --table and --view")
        .contains(DeletedCommand.USAGE);
  }

  @Test
  void errorsPrintTheErrorModelsMessage() {
    assertThat(
            DeletedCommand.errorMessage(
                409,
                "{\"error\":{\"message\":\"Table db.t already exists\","
                    + "\"type\":\"AlreadyExistsException\",\"code\":409}}"))
        .isEqualTo("HTTP 409 AlreadyExistsException: Table db.t already exists");
    assertThat(DeletedCommand.errorMessage(502, "Bad gateway")).isEqualTo("HTTP 502: Bad gateway");
  }

  @Test
  void theTableAlignsColumnsAndEscapesControlCharacters() {
    assertThat(
            DeletedCommand.table(
                List.of(List.of("KIND", "NAME", "BY"), List.of("table", "t", "a\nb"))))
        .isEqualTo("KIND   NAME  BY\ntable  t     a\\nb\n");
  }
}
