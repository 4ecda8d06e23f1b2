package dev.floe.server.cli;

import static dev.floe.server.cli.ManagementClient.BASE;
import static dev.floe.server.cli.ManagementClient.enc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.server.cli.ManagementClient.Request;
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
    footer = "  floe tokens create alice --expires-in-seconds 86400")
final class TokensCommand {
  private final Streams streams;

  TokensCommand(Streams streams) {
    this.streams = streams;
  }

  /** {@code floe tokens create PRINCIPAL}: creates a token and prints the answer holding it. */
  @Command(
      name = "create",
      description = "Create a token for a principal and print it.",
      footerHeading = "%nExample:%n",
      footer = "  floe tokens create alice --expires-in-seconds 86400")
  int create(
      @Parameters(paramLabel = "PRINCIPAL", description = "the principal's name") String principal,
      @Option(
              names = "--expires-in-seconds",
              paramLabel = "N",
              description = "how long the token is valid, in seconds")
          Long expiresInSeconds,
      @Mixin ServerOptions server)
      throws InterruptedException {
    ObjectNode body = ManagementClient.body();
    if (expiresInSeconds != null) {
      body.put("expires-in-seconds", expiresInSeconds);
    }
    return send(server, new Request("POST", tokens(principal), body));
  }

  /** {@code floe tokens list PRINCIPAL}: a principal's tokens, by id. */
  @Command(
      name = "list",
      description = "List a principal's tokens.",
      footerHeading = "%nExample:%n",
      footer = "  floe tokens list alice")
  int list(
      @Parameters(paramLabel = "PRINCIPAL", description = "the principal's name") String principal,
      @Mixin ServerOptions server)
      throws InterruptedException {
    return send(server, new Request("GET", tokens(principal), null));
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
    return send(server, new Request("DELETE", BASE + "/tokens/" + enc(tokenId), null));
  }

  private static String tokens(String principal) {
    return BASE + "/principals/" + enc(principal) + "/tokens";
  }

  private int send(ServerOptions server, Request request) throws InterruptedException {
    return ManagementClient.send(server, request, streams.out());
  }
}
