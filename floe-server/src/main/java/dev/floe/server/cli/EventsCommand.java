package dev.floe.server.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code floe events}: the catalog's changes, as its log of record holds them. */
@Command(
    name = "events",
    description = "Follow the catalog's changes (floe.events).",
    subcommands = {EventsCommand.Tail.class, HelpCommand.class},
    footerHeading = "%nExample:%n",
    footer = "  floe events tail --table db.orders --from-beginning --to-end")
final class EventsCommand {
  private EventsCommand() {}

  /** {@code floe events tail}: prints the events as they arrive ({@link TailCommand}). */
  @Command(
      name = "tail",
      description = {
        "Print the catalog's changes (floe.events), one line each, from Kafka; or with --url,"
            + " from a Floe server's events endpoint: what the token's principal may read, in the"
            + " endpoint's shapes. Both print the same lines and take the same --type names: the"
            + " endpoint's operation types (update-table, x-floe.restore-table) or the log's"
            + " event types (floe.table.committed)."
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  floe events tail --table db.orders --from-beginning --to-end",
        "  floe events tail --url http://localhost:8181 --type update-table --limit 10"
      })
  static final class Tail implements Callable<Integer> {
    private final Streams streams;

    @Spec CommandSpec spec;

    @Mixin TailOptions.Common common;

    @Option(
        names = "--namespace",
        paramLabel = "ns",
        description = "only events about this namespace and the tables directly in it")
    String namespace;

    @Option(
        names = "--type",
        paramLabel = "TYPE,...",
        description =
            "only these operation types (update-table,drop-table,...) or event types"
                + " (floe.table.committed,...), comma-separated")
    String types;

    @Option(
        names = "--url",
        paramLabel = "URL",
        converter = ServerUrl.class,
        description = "read a Floe server's events endpoint instead of Kafka")
    String url;

    @Option(
        names = "--token",
        paramLabel = "T",
        description =
            "the bearer token for --url (default: $FLOE_TOKEN, else <data-dir>/admin.token)")
    String token;

    @Option(
        names = "--warehouse",
        paramLabel = "W",
        defaultValue = "default",
        description = "the warehouse whose events --url reads (default ${DEFAULT-VALUE})")
    String warehouse;

    Tail(Streams streams) {
      this.streams = streams;
    }

    @Override
    public Integer call() {
      TailOptions options;
      try {
        options = TailOptions.events(common, namespace, types, url, token, warehouse);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      return TailCommand.run(options, streams.out());
    }
  }
}
