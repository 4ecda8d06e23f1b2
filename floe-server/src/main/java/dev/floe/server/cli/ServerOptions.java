package dev.floe.server.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --url} and {@code --token}: the server a command talks to and how it signs in. */
final class ServerOptions {
  @Option(
      names = "--url",
      paramLabel = "URL",
      defaultValue = "http://localhost:8181",
      converter = ServerUrl.class,
      description = "the Floe server (default: ${DEFAULT-VALUE})")
  String url;

  @Option(
      names = "--token",
      paramLabel = "T",
      description = "the bearer token (default: $FLOE_TOKEN, else floe-data/admin.token)")
  String token;

  /** The token to send; a usage error when there is none. */
  String requiredToken() {
    String resolved = ClientToken.resolve(token, Path.of("floe-data"));
    if (resolved == null) {
      throw CliFailure.usage(
          "no token", "pass --token, set FLOE_TOKEN, or run where floe-data/admin.token is");
    }
    return resolved;
  }
}
