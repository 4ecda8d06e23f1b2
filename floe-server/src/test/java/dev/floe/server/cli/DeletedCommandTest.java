package dev.floe.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.FloeJson;
import dev.floe.server.Main;
import dev.floe.server.cli.DeletedCommand.Request;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

/**
 * {@code floe deleted}: which management request each command line sends, which command lines are
 * refused before anything is sent, and how answers are printed.
 */
class DeletedCommandTest {
  /** The request {@code floe deleted <args>} would send. */
  private static Request parse(String... args) {
    String[] all = deleted(args);
    ParseResult parsed = Main.commandLine(all, System.out, System.err).parseArgs(all);
    return ((DeletedCommand.Action) parsed.subcommand().subcommand().commandSpec().userObject())
        .request();
  }

  private static String[] deleted(String... args) {
    return Stream.concat(Stream.of("deleted"), Stream.of(args)).toArray(String[]::new);
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
  void withoutTableOrViewRestoreAndExpungeNameTheDroppedNamespace() {
    Request restore = parse("restore", "--warehouse", "w", "--namespace", "a.b");
    assertThat(restore.method()).isEqualTo("POST");
    assertThat(restore.path()).isEqualTo("/management/v1/warehouses/w/deleted/restore");
    assertThat(restore.body().toString())
        .isEqualTo("{\"kind\":\"namespace\",\"namespace\":[\"a\",\"b\"]}");
    Request expunge = parse("expunge", "--warehouse", "w", "--namespace", "a.b", "--retain-data");
    assertThat(expunge.method()).isEqualTo("POST");
    assertThat(expunge.path()).isEqualTo("/management/v1/warehouses/w/deleted/expunge");
    assertThat(expunge.body().toString())
        .isEqualTo("{\"kind\":\"namespace\",\"namespace\":[\"a\",\"b\"],\"retain-data\":true}");
    assertThat(parse("expunge", "--warehouse", "w", "--namespace", "db").body().toString())
        .isEqualTo("{\"kind\":\"namespace\",\"namespace\":[\"db\"],\"retain-data\":false}");
  }

  @Test
  void aNamespaceRowHasNoNameOrUuid() throws Exception {
    String answer =
        "{\"deleted\":["
            + "{\"kind\":\"namespace\",\"namespace\":[\"a\",\"b\"],\"deleted-at-ms\":0,"
            + "\"expires-at-ms\":86400000,\"deleted-by\":\"ann\",\"purge-requested\":false},"
            + "{\"kind\":\"table\",\"namespace\":[\"a\",\"b\"],\"name\":\"t\",\"uuid\":\"u-1\","
            + "\"deleted-at-ms\":0,\"expires-at-ms\":1000,\"deleted-by\":\"bo\","
            + "\"purge-requested\":true}]}";
    assertThat(printed(parse("list", "--warehouse", "w"), answer))
        .isEqualTo(
            "KIND       NAMESPACE  NAME  UUID  DELETED-AT            EXPIRES-AT            "
                + "DELETED-BY  PURGE\n"
                + "namespace  a.b        -     -     1970-01-01T00:00:00Z  1970-01-02T00:00:00Z  "
                + "ann         no\n"
                + "table      a.b        t     u-1   1970-01-01T00:00:00Z  1970-01-01T00:00:01Z  "
                + "bo          yes\n");
    assertThat(printed(parse("list", "--warehouse", "w"), "{\"deleted\":[]}"))
        .endsWith("(no dropped tables, views or namespaces are kept)\n");
    assertThat(printed(parse("list", "--warehouse", "w", "--json"), answer))
        .contains("\"kind\" : \"namespace\"")
        .doesNotContain("\"name\" : \"-\"");
  }

  @Test
  void namespaceRestoresAndExpungesSayWhatHappened() throws Exception {
    assertThat(
            printed(
                parse("restore", "--warehouse", "w", "--namespace", "a.b"),
                "{\"kind\":\"namespace\",\"namespace\":[\"a\",\"b\"],"
                    + "\"properties\":{\"owner\":\"ann\",\"color\":\"blue\"}}"))
        .isEqualTo("Restored namespace a.b with properties {color=blue, owner=ann}\n");
    assertThat(
            printed(
                parse("restore", "--warehouse", "w", "--namespace", "a"),
                "{\"kind\":\"namespace\",\"namespace\":[\"a\"],\"properties\":{}}"))
        .isEqualTo("Restored namespace a\n");
    assertThat(printed(parse("expunge", "--warehouse", "w", "--namespace", "a.b"), ""))
        .isEqualTo("Expunged namespace a.b and everything kept inside it\n");
    assertThat(
            printed(
                parse("expunge", "--warehouse", "w", "--namespace", "a.b", "--retain-data"), ""))
        .isEqualTo(
            "Expunged namespace a.b and everything kept inside it (the files of its tables are"
                + " kept)\n");
    // Tables print as before.
    assertThat(
            printed(
                parse("restore", "--warehouse", "w", "--namespace", "db", "--table", "t"),
                "{\"kind\":\"table\",\"namespace\":[\"db\"],\"name\":\"t\",\"uuid\":\"u-1\"}"))
        .isEqualTo("Restored table db.t (uuid u-1)\n");
  }

  private static String printed(Request request, String answer) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    DeletedCommand.print(
        request,
        answer.isEmpty() ? null : FloeJson.mapper().readTree(answer),
        new PrintStream(out, true, StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
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
            List.of("restore", "--warehouse", "w"),
            List.of("expunge", "--warehouse", "w", "--retain-data"),
            List.of("restore", "--warehouse", "w", "--namespace", "db", "--uuid", "u"),
            List.of("restore", "--warehouse", "w", "--namespace", "db", "--as", "db2"),
            List.of("expunge", "--warehouse", "w", "--namespace", "db", "--uuid", "u"),
            List.of("expunge", "--warehouse", "w", "--namespace", "db", "--as", "db2"),
            List.of("restore", "--warehouse", "w", "--namespace", "db", "--retain-data"),
            List.of("restore", "--warehouse", "w", "--namespace", ".db"),
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
      // Nothing listens on port 1: a command line that got as far as a request would exit with 1.
      List<String> all = new ArrayList<>(args);
      all.addAll(List.of("--url", "http://127.0.0.1:1", "--token", "t"));
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int exit =
          Main.run(
              deleted(all.toArray(new String[0])),
              new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));
      assertThat(exit).as(String.join(" ", args) + ": " + err).isEqualTo(2);
    }
  }

  @Test
  void aBadCommandLineExitsWithTwoAndOneLineBeforeAnyRequest() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        Main.run(
            deleted(
                "restore",
                "--warehouse",
                "w",
                "--namespace",
                "db",
                "--uuid",
                "u",
                "--url",
                "http://localhost:1"),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(exit).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "error: --uuid needs --table or --view: a dropped namespace is named by --namespace"
                + " alone and restored in place; see floe deleted restore --help\n");
  }

  @Test
  void errorsPrintTheErrorModelsTypeAndMessage() {
    assertThat(
            Output.refusal(
                409,
                "{\"error\":{\"message\":\"Table db.t already exists\","
                    + "\"type\":\"AlreadyExistsException\",\"code\":409}}"))
        .isEqualTo("AlreadyExistsException: Table db.t already exists");
    assertThat(Output.refusal(502, "Bad gateway")).isEqualTo("HTTP 502: Bad gateway");
  }

  @Test
  void theTableAlignsColumnsAndEscapesControlCharacters() {
    assertThat(Output.table(List.of(List.of("KIND", "NAME", "BY"), List.of("table", "t", "a\nb"))))
        .isEqualTo("KIND   NAME  BY\ntable  t     a\\nb\n");
  }
}
