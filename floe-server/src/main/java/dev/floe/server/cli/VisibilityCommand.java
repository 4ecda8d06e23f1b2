package dev.floe.server.cli;

import dev.floe.server.cli.ManagementClient.JsonOption;
import dev.floe.server.cli.ManagementClient.Request;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code floe visibility}: whether every signed-in principal may see a namespace. */
@Command(
    name = "visibility",
    description =
        "Show or set a namespace's visibility: private, or public to every signed-in"
            + " principal (management API).",
    subcommands = HelpCommand.class,
    footerHeading = "%nExample:%n",
    footer = "  floe visibility set --warehouse default --namespace db --visibility public")
final class VisibilityCommand {
  private final Streams streams;

  VisibilityCommand(Streams streams) {
    this.streams = streams;
  }

  /** The namespace whose visibility is shown or set. */
  static final class Namespace {
    @Option(names = "--warehouse", required = true, paramLabel = "W", description = "the warehouse")
    String warehouse;

    @Option(
        names = "--namespace",
        required = true,
        paramLabel = "a.b",
        description = "the namespace, levels joined by '.'")
    String namespace;

    /** {@code db in warehouse default}. */
    @Override
    public String toString() {
      return namespace + " in warehouse " + warehouse;
    }

    String path() {
      return ManagementClient.warehouse(warehouse)
          + "/namespaces/"
          + ManagementClient.enc(namespace.replace('.', '\u001f'))
          + "/visibility";
    }
  }

  /** {@code floe visibility get}: a namespace's visibility. */
  @Command(
      name = "get",
      description = "Show a namespace's visibility.",
      footerHeading = "%nExample:%n",
      footer = "  floe visibility get --warehouse default --namespace db")
  int get(@Mixin Namespace namespace, @Mixin JsonOption json, @Mixin ServerOptions server)
      throws InterruptedException {
    return ManagementClient.send(
        server,
        new Request("GET", namespace.path(), null),
        streams.out(),
        json,
        (answer, out) ->
            Output.line(out, namespace + " is " + word(answer.path("visibility").asText())));
  }

  /** What the command line calls a visibility: {@code public} or {@code private}. */
  static String word(String visibility) {
    return visibility.equals("AUTHENTICATED_PUBLIC")
        ? "public"
        : visibility.toLowerCase(Locale.ROOT);
  }

  /** {@code floe visibility set}: makes a namespace private or public. */
  @Command(
      name = "set",
      description = "Set a namespace's visibility.",
      footerHeading = "%nExample:%n",
      footer = "  floe visibility set --warehouse default --namespace db --visibility private")
  int set(
      @Mixin Namespace namespace,
      @Option(
              names = "--visibility",
              required = true,
              paramLabel = "private|public",
              description = "private, or public to every signed-in principal")
          String visibility,
      @Mixin ServerOptions server)
      throws InterruptedException {
    String value = visibility.equals("public") ? "AUTHENTICATED_PUBLIC" : visibility;
    return ManagementClient.send(
        server,
        new Request("PUT", namespace.path(), ManagementClient.body().put("visibility", value)),
        streams.out(),
        null,
        (answer, out) -> Output.line(out, namespace + " is now " + word(value)));
  }
}
