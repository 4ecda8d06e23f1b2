package dev.floe.server.cli;

import static dev.floe.server.cli.ManagementClient.BASE;
import static dev.floe.server.cli.ManagementClient.enc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.server.cli.ManagementClient.JsonOption;
import dev.floe.server.cli.ManagementClient.Request;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code floe tokens}: the bearer tokens of a principal. */
@Command(
    name = "tokens",
    description = "Create, list and revoke a principal's bearer tokens (management API).",
    subcommands = HelpCommand.class,
    footerHeading = "%nExample:%n",
    footer = "  floe tokens create alice --expires-in-seconds 86400 > alice.token")
final class TokensCommand {
  private final Streams streams;

  TokensCommand(Streams streams) {
    this.streams = streams;
  }

  /**
   * {@code floe tokens create PRINCIPAL}: creates a token and prints it alone on stdout (so that it
   * can be redirected to a file), its id and expiry on stderr.
   */
  @Command(
      name = "create",
      description = {
        "Create a token for a principal. The token is printed alone on standard output, its id and"
            + " expiry on standard error; it is shown only this once."
      },
      footerHeading = "%nExample:%n",
      footer = "  floe tokens create alice --expires-in-seconds 86400 > alice.token")
  int create(
      @Parameters(paramLabel = "PRINCIPAL", description = "the principal's name") String principal,
      @Option(
              names = "--expires-in-seconds",
              paramLabel = "N",
              description = "how long the token is valid, in seconds")
          Long expiresInSeconds,
      @Mixin JsonOption json,
      @Mixin ServerOptions server)
      throws InterruptedException {
    ObjectNode body = ManagementClient.body();
    if (expiresInSeconds != null) {
      body.put("expires-in-seconds", expiresInSeconds);
    }
    return ManagementClient.send(
        server,
        new Request("POST", tokens(principal), body),
        streams.out(),
        json,
        (answer, out) -> {
          Output.line(
              streams.err(),
              "Created token "
                  + answer.path("id").asText()
                  + " for "
                  + answer.path("principal").asText()
                  + ", expires "
                  + expiry(answer)
                  + "; it is shown only now");
          out.println(answer.path("token").asText());
        });
  }

  /** {@code floe tokens list PRINCIPAL}: a principal's tokens, by id. */
  @Command(
      name = "list",
      description = "List a principal's tokens.",
      footerHeading = "%nExample:%n",
      footer = "  floe tokens list alice")
  int list(
      @Parameters(paramLabel = "PRINCIPAL", description = "the principal's name") String principal,
      @Mixin JsonOption json,
      @Mixin ServerOptions server)
      throws InterruptedException {
    return ManagementClient.send(
        server,
        new Request("GET", tokens(principal), null),
        streams.out(),
        json,
        (answer, out) -> {
          List<List<String>> rows = new ArrayList<>();
          for (JsonNode token : answer.path("tokens")) {
            rows.add(
                List.of(
                    token.path("id").asText(), token.path("principal").asText(), expiry(token)));
          }
          Output.table(
              out,
              List.of("ID", "PRINCIPAL", "EXPIRES-AT"),
              rows,
              "(" + principal + " has no tokens)");
        });
  }

  /** When the token expires, ISO-8601, or {@code never}. */
  private static String expiry(JsonNode token) {
    return token.hasNonNull("expires-at-ms")
        ? Output.time(token.path("expires-at-ms").asLong())
        : "never";
  }

  /** {@code floe tokens revoke TOKEN_ID}: revokes a token. */
  @Command(
      name = "revoke",
      description = "Revoke a token by its id.",
      footerHeading = "%nExample:%n",
      footer = "  floe tokens revoke 3f2a9c1e")
  int revoke(
      @Parameters(paramLabel = "TOKEN_ID", description = "the token's id") String tokenId,
      @Mixin ServerOptions server)
      throws InterruptedException {
    return ManagementClient.send(
        server,
        new Request("DELETE", BASE + "/tokens/" + enc(tokenId), null),
        streams.out(),
        null,
        (answer, out) -> Output.line(out, "Revoked token " + tokenId));
  }

  private static String tokens(String principal) {
    return BASE + "/principals/" + enc(principal) + "/tokens";
  }
}
