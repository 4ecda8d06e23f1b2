package dev.floe.server.cli;

import static dev.floe.server.cli.ManagementClient.BASE;
import static dev.floe.server.cli.ManagementClient.enc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.server.cli.ManagementClient.JsonOption;
import dev.floe.server.cli.ManagementClient.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
  int list(@Mixin JsonOption json, @Mixin ServerOptions server) throws InterruptedException {
    return ManagementClient.send(
        server,
        new Request("GET", BASE + "/principals", null),
        streams.out(),
        json,
        (answer, out) -> {
          List<List<String>> rows = new ArrayList<>();
          for (JsonNode principal : answer.path("principals")) {
            rows.add(
                List.of(
                    principal.path("name").asText(),
                    principal.path("kind").asText(),
                    principal.path("email").asText("-"),
                    roles(principal.path("roles"))));
          }
          Output.table(out, List.of("NAME", "KIND", "EMAIL", "ROLES"), rows, "(no principals)");
        });
  }

  /** {@code default=writer,*=reader}, or {@code -} for none. */
  private static String roles(JsonNode roles) {
    Map<String, String> sorted = new TreeMap<>();
    roles.properties().forEach(role -> sorted.put(role.getKey(), role.getValue().asText()));
    List<String> pairs = new ArrayList<>();
    sorted.forEach((warehouse, role) -> pairs.add(warehouse + "=" + role));
    return pairs.isEmpty() ? "-" : String.join(",", pairs);
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
      @Mixin JsonOption json,
      @Mixin ServerOptions server)
      throws InterruptedException {
    ObjectNode body = ManagementClient.body().put("name", name);
    if (kind != null) {
      body.put("kind", kind);
    }
    if (email != null) {
      body.put("email", email);
    }
    return ManagementClient.send(
        server,
        new Request("POST", BASE + "/principals", body),
        streams.out(),
        json,
        (answer, out) ->
            Output.line(
                out,
                "Created "
                    + answer.path("kind").asText()
                    + " "
                    + answer.path("name").asText()
                    + "; give it a role with: floe principals role "
                    + answer.path("name").asText()
                    + " --warehouse W --role reader|writer|admin"));
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
    return send(
        server,
        new Request("DELETE", BASE + "/principals/" + enc(name), null),
        "Deleted principal " + name + " with its tokens and grants");
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
    String where = warehouse.equals("*") ? "every warehouse" : "warehouse " + warehouse;
    if (role.equals("none")) {
      return send(server, new Request("DELETE", path, null), name + " now has no role in " + where);
    }
    return send(
        server,
        new Request("PUT", path, ManagementClient.body().put("role", role)),
        name + " is now " + role + " in " + where);
  }

  private int send(ServerOptions server, Request request, String done) throws InterruptedException {
    return ManagementClient.send(
        server, request, streams.out(), null, (answer, out) -> Output.line(out, done));
  }
}
