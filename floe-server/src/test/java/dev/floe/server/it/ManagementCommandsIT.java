package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.Main;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.SharedFloe;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code floe principals|tokens|grants|visibility} against a running server with access control on,
 * as an operator uses them: listings are aligned columns with ISO-8601 times ({@code --json} gives
 * the server's answer), changes are confirmed in one sentence, refusals are one line {@code error:
 * <type>: <message>}, and a grant or a visibility on a namespace that does not exist is refused.
 */
class ManagementCommandsIT {
  @RegisterExtension static final SharedFloe SHARED = SharedFloe.withTokens();

  private static final ObjectMapper JSON = new ObjectMapper();

  private static FloeProcess floe;
  private static String admin;

  @BeforeAll
  static void start() {
    floe = SHARED.process();
    admin = floe.adminToken();
    AuthHttp.Response created =
        AuthHttp.send(
            floe.uri(), "POST", "/v1/default/namespaces", admin, "{\"namespace\":[\"mc_db\"]}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
  }

  @Test
  void principalsAndTheirRolesAreListedAsAColumnTable() throws Exception {
    assertThat(
            ok("principals", "create", "mc_ann", "--kind", "user", "--email", "ann@example.com")
                .out())
        .startsWith("Created user mc_ann; give it a role with: floe principals role mc_ann");
    assertThat(
            ok("principals", "role", "mc_ann", "--warehouse", "default", "--role", "writer").out())
        .isEqualTo("mc_ann is now writer in warehouse default\n");

    List<String> listed = ok("principals", "list").out().lines().toList();
    assertThat(listed.get(0)).matches("NAME +KIND +EMAIL +ROLES");
    assertThat(listed).anyMatch(l -> l.matches("mc_ann +user +ann@example\\.com +default=writer"));
    assertThat(listed).anyMatch(l -> l.startsWith("admin "));

    JsonNode json = JSON.readTree(ok("principals", "list", "--json").out());
    assertThat(json.path("principals").findValuesAsText("name")).contains("mc_ann", "admin");

    assertThat(ok("principals", "role", "mc_ann", "--warehouse", "*", "--role", "none").out())
        .isEqualTo("mc_ann now has no role in every warehouse\n");
  }

  @Test
  void aTokenIsPrintedAloneAndListedWithItsExpiry() {
    ok("principals", "create", "mc_tess", "--kind", "service");
    long before = System.currentTimeMillis();
    Run created = ok("tokens", "create", "mc_tess", "--expires-in-seconds", "3600");
    String token = created.out().strip();
    assertThat(created.out()).isEqualTo(token + "\n");
    assertThat(token).startsWith("floe_");
    Matcher said =
        Pattern.compile("Created token (\\S+) for mc_tess, expires (\\S+); it is shown only now\n")
            .matcher(created.err());
    assertThat(said.matches()).as(created.err()).isTrue();
    String id = said.group(1);
    assertThat(Instant.parse(said.group(2)).toEpochMilli())
        .isBetween(before + 3_600_000, System.currentTimeMillis() + 3_600_000);
    assertThat(whoami(token)).isEqualTo(200);
    String forever = ok("tokens", "create", "mc_tess").out().strip();

    List<String> listed = ok("tokens", "list", "mc_tess").out().lines().toList();
    assertThat(listed.get(0)).matches("ID +PRINCIPAL +EXPIRES-AT");
    assertThat(listed)
        .hasSize(3)
        .anyMatch(l -> l.matches(Pattern.quote(id) + " +mc_tess +" + Pattern.quote(said.group(2))))
        .anyMatch(l -> l.matches("\\S+ +mc_tess +never"));
    assertThat(String.join("\n", listed)).doesNotContain(token, forever);

    assertThat(ok("tokens", "revoke", id).out()).isEqualTo("Revoked token " + id + "\n");
    assertThat(whoami(token)).isEqualTo(401);
    assertThat(whoami(forever)).isEqualTo(200);
  }

  @Test
  void grantsAndVisibilityNeedANamespaceThatExists() throws Exception {
    ok("principals", "create", "mc_bo");
    assertThat(
            ok(
                    "grants",
                    "add",
                    "--warehouse",
                    "default",
                    "--principal",
                    "mc_bo",
                    "--namespace",
                    "mc_db",
                    "--action",
                    "read")
                .out())
        .isEqualTo("Granted read on mc_db in warehouse default to mc_bo\n");

    Run missing =
        floe(
            "grants",
            "add",
            "--warehouse",
            "default",
            "--principal",
            "mc_bo",
            "--namespace",
            "mc_nowhere",
            "--action",
            "write");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err())
        .isEqualTo("error: NoSuchNamespaceException: Namespace does not exist: mc_nowhere\n");
    Run hidden =
        floe(
            "visibility",
            "set",
            "--warehouse",
            "default",
            "--namespace",
            "mc_nowhere",
            "--visibility",
            "public");
    assertThat(hidden.exit()).isEqualTo(1);
    assertThat(hidden.err()).startsWith("error: NoSuchNamespaceException: ");

    List<String> grants = ok("grants", "list", "--warehouse", "default").out().lines().toList();
    assertThat(grants.get(0)).matches("PRINCIPAL +NAMESPACE +TABLE +ACTION");
    assertThat(grants).anyMatch(l -> l.matches("mc_bo +mc_db +- +read"));
    assertThat(String.join("\n", grants)).doesNotContain("mc_nowhere");

    assertThat(
            ok(
                    "visibility",
                    "set",
                    "--warehouse",
                    "default",
                    "--namespace",
                    "mc_db",
                    "--visibility",
                    "public")
                .out())
        .isEqualTo("mc_db in warehouse default is now public\n");
    assertThat(ok("visibility", "get", "--warehouse", "default", "--namespace", "mc_db").out())
        .isEqualTo("mc_db in warehouse default is public\n");
    assertThat(
            JSON.readTree(
                    ok(
                            "visibility",
                            "get",
                            "--warehouse",
                            "default",
                            "--namespace",
                            "mc_db",
                            "--json")
                        .out())
                .path("visibility")
                .asText())
        .isEqualTo("AUTHENTICATED_PUBLIC");
    assertThat(ok("grants", "list", "--warehouse", "default").out())
        .contains("Public to every signed-in principal (floe visibility): ")
        .containsPattern("[: ]mc_db(,|\n)");

    assertThat(
            ok(
                    "grants",
                    "revoke",
                    "--warehouse",
                    "default",
                    "--principal",
                    "mc_bo",
                    "--namespace",
                    "mc_db")
                .out())
        .isEqualTo("Revoked the grant of mc_bo on mc_db in warehouse default\n");
  }

  @Test
  void aRefusalIsOneLineWithTheServersTypeAndMessage() {
    Run unknown = floe("principals", "delete", "mc_nobody");
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err()).matches("error: [A-Za-z]+Exception: .*mc_nobody.*\n");

    ok("principals", "create", "mc_cy");
    String token = ok("tokens", "create", "mc_cy").out().strip();
    Run forbidden = run(token, "principals", "list");
    assertThat(forbidden.exit()).isEqualTo(1);
    assertThat(forbidden.err())
        .startsWith("error: ForbiddenException: ")
        .endsWith("; ask an admin for a role or grant that allows it\n");
  }

  private static int whoami(String token) {
    return AuthHttp.send(floe.uri(), "GET", "/management/v1/whoami", token, null).status();
  }

  record Run(int exit, String out, String err) {}

  /** {@code floe <args> --url <server> --token <admin>}, which must succeed. */
  private static Run ok(String... args) {
    Run run = floe(args);
    assertThat(run.exit()).as(run.err()).isZero();
    return run;
  }

  private static Run floe(String... args) {
    return run(admin, args);
  }

  private static Run run(String token, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--url", floe.uri(), "--token", token));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        Main.run(
            all.toArray(String[]::new),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    Run run =
        new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception in thread");
    return run;
  }
}
