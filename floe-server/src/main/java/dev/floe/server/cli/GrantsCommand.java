package dev.floe.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.server.cli.ManagementClient.JsonOption;
import dev.floe.server.cli.ManagementClient.Request;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code floe grants}: what a principal may do in a namespace or table of a warehouse. */
@Command(
    name = "grants",
    description = "List, add and revoke grants on namespaces and tables (management API).",
    subcommands = HelpCommand.class,
    footerHeading = "%nExample:%n",
    footer = "  floe grants add --warehouse w --principal ann --namespace db --action read")
final class GrantsCommand {
  private final Streams streams;

  GrantsCommand(Streams streams) {
    this.streams = streams;
  }

  /** The grant's target: a principal, a namespace, and optionally a table in it. */
  static final class Target {
    @Option(names = "--warehouse", required = true, paramLabel = "W", description = "the warehouse")
    String warehouse;

    @Option(names = "--principal", required = true, paramLabel = "P", description = "the principal")
    String principal;

    @Option(
        names = "--namespace",
        required = true,
        paramLabel = "a.b",
        description = "the namespace, levels joined by '.'")
    String namespace;

    @Option(names = "--table", paramLabel = "T", description = "a table in the namespace")
    String table;

    ObjectNode body() {
      ObjectNode body = ManagementClient.body().put("principal", principal);
      ManagementClient.putNamespace(body, namespace);
      if (table != null) {
        body.put("table", table);
      }
      return body;
    }

    String grants() {
      return ManagementClient.warehouse(warehouse) + "/grants";
    }

    /** {@code db.t in warehouse w}. */
    String describe() {
      return (table == null ? namespace : namespace + "." + table) + " in warehouse " + warehouse;
    }
  }

  /** {@code floe grants list}: every grant of a warehouse. */
  @Command(
      name = "list",
      description = "List a warehouse's grants.",
      footerHeading = "%nExample:%n",
      footer = "  floe grants list --warehouse default")
  int list(
      @Option(
              names = "--warehouse",
              required = true,
              paramLabel = "W",
              description = "the warehouse")
          String warehouse,
      @Mixin JsonOption json,
      @Mixin ServerOptions server)
      throws InterruptedException {
    return ManagementClient.send(
        server,
        new Request("GET", ManagementClient.warehouse(warehouse) + "/grants", null),
        streams.out(),
        json,
        (answer, out) -> {
          List<List<String>> rows = new ArrayList<>();
          for (JsonNode grant : answer.path("grants")) {
            rows.add(
                List.of(
                    grant.path("principal").asText(),
                    Output.namespace(grant.path("namespace")),
                    grant.path("table").asText("-"),
                    grant.path("action").asText()));
          }
          Output.table(
              out, List.of("PRINCIPAL", "NAMESPACE", "TABLE", "ACTION"), rows, "(no grants)");
          List<String> visible = new ArrayList<>();
          answer.path("public-namespaces").forEach(ns -> visible.add(Output.namespace(ns)));
          if (!visible.isEmpty()) {
            Output.line(
                out,
                "Public to every signed-in principal (floe visibility): "
                    + String.join(", ", visible));
          }
        });
  }

  /** {@code floe grants add}: lets a principal read, write or manage a namespace or table. */
  @Command(
      name = "add",
      description = "Grant a principal an action on a namespace, or on a table in it.",
      footerHeading = "%nExample:%n",
      footer = {
        "  floe grants add --warehouse w --principal ann --namespace db --table t \\",
        "    --action write"
      })
  int add(
      @Mixin Target target,
      @Option(
              names = "--action",
              required = true,
              paramLabel = "read|write|manage",
              description = "what the principal may do")
          String action,
      @Mixin ServerOptions server)
      throws InterruptedException {
    return send(
        server,
        new Request("POST", target.grants(), target.body().put("action", action)),
        "Granted " + action + " on " + target.describe() + " to " + target.principal);
  }

  /** {@code floe grants revoke}: takes a principal's grant on a namespace or table away. */
  @Command(
      name = "revoke",
      description = "Revoke a principal's grant on a namespace, or on a table in it.",
      footerHeading = "%nExample:%n",
      footer = "  floe grants revoke --warehouse default --principal alice --namespace db")
  int revoke(@Mixin Target target, @Mixin ServerOptions server) throws InterruptedException {
    return send(
        server,
        new Request("POST", target.grants() + "/revoke", target.body()),
        "Revoked the grant of " + target.principal + " on " + target.describe());
  }

  private int send(ServerOptions server, Request request, String done) throws InterruptedException {
    return ManagementClient.send(
        server, request, streams.out(), null, (answer, out) -> Output.line(out, done));
  }
}
