package dev.floe.server.cli;

import static dev.floe.server.cli.ManagementClient.BASE;
import static dev.floe.server.cli.ManagementClient.enc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.server.cli.ManagementClient.Request;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code floe principals}: the users and services the catalog knows, and their roles. */
@Command(
    name = "principals",
    description = "List, create and delete principals, and give them roles (management API).",
    subcommands = HelpCommand.class,
    footerHeading = "%nExample:%n",
    footer = "  floe principals create alice --kind user --email alice@example.com")
final class PrincipalsCommand {
  private final Streams streams;

  PrincipalsCommand(Streams streams) {
    this.streams = streams;
  }

  /** {@code floe principals list}: every principal, with its roles. */
  @Command(
      name = "list",
      description = "List every principal.",
      footerHeading = "%nExample:%n",
      footer = "  floe principals list --url http://localhost:8181")
  int list(@Mixin ServerOptions server) throws InterruptedException {
    return send(server, new Request("GET", BASE + "/principals", null));
  }

  /** {@code floe principals create NAME}: creates a principal. */
  @Command(
      name = "create",
      description = "Create a principal.",
      footerHeading = "%nExample:%n",
      footer = "  floe principals create etl --kind service")
  int create(
      @Parameters(paramLabel = "NAME", description = "the principal's name") String name,
      @Option(names = "--kind", paramLabel = "user|service", description = "user or service")
          String kind,
      @Option(names = "--email", paramLabel = "E", description = "the principal's email")
          String email,
      @Mixin ServerOptions server)
      throws InterruptedException {
    ObjectNode body = ManagementClient.body().put("name", name);
    if (kind != null) {
      body.put("kind", kind);
    }
    if (email != null) {
      body.put("email", email);
    }
    return send(server, new Request("POST", BASE + "/principals", body));
  }

  /** {@code floe principals delete NAME}: deletes a principal. */
  @Command(
      name = "delete",
      description = "Delete a principal.",
      footerHeading = "%nExample:%n",
      footer = "  floe principals delete alice")
  int delete(
      @Parameters(paramLabel = "NAME", description = "the principal's name") String name,
      @Mixin ServerOptions server)
      throws InterruptedException {
    return send(server, new Request("DELETE", BASE + "/principals/" + enc(name), null));
  }

  /** {@code floe principals role NAME}: sets or (with {@code none}) removes a role. */
  @Command(
      name = "role",
      description = "Give a principal a role in a warehouse (or every warehouse), or take it away.",
      footerHeading = "%nExample:%n",
      footer = "  floe principals role alice --warehouse default --role writer")
  int role(
      @Parameters(paramLabel = "NAME", description = "the principal's name") String name,
      @Option(
              names = "--warehouse",
              required = true,
              paramLabel = "W|*",
              description = "the warehouse, or * for every warehouse")
          String warehouse,
      @Option(
              names = "--role",
              required = true,
              paramLabel = "reader|writer|admin|none",
              description = "the role; none takes the principal's role away")
          String role,
      @Mixin ServerOptions server)
      throws InterruptedException {
    String path = BASE + "/principals/" + enc(name) + "/roles/" + enc(warehouse);
    if (role.equals("none")) {
      return send(server, new Request("DELETE", path, null));
    }
    return send(server, new Request("PUT", path, ManagementClient.body().put("role", role)));
  }

  private int send(ServerOptions server, Request request) throws InterruptedException {
    return ManagementClient.send(server, request, streams.out());
  }
}
