package dev.floe.server.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code floe audit}: the outcome of every request the catalog answered. */
@Command(
    name = "audit",
    description = "Follow the catalog's request outcomes (floe.audit).",
    subcommands = {AuditCommand.Tail.class, HelpCommand.class},
    footerHeading = "%nExample:%n",
    footer = "  floe audit tail --status 4xx,5xx")
final class AuditCommand {
  private AuditCommand() {}

  /** {@code floe audit tail}: prints the request outcomes as they arrive ({@link TailCommand}). */
  @Command(
      name = "tail",
      description = "Print the catalog's request outcomes (floe.audit) from Kafka, one line each.",
      footerHeading = "%nExample:%n",
      footer = "  floe audit tail --principal alice --status 409,5xx --from-beginning --to-end")
  static final class Tail implements Callable<Integer> {
    private final Streams streams;

    @Spec CommandSpec spec;

    @Mixin TailOptions.Common common;

    @Option(
        names = "--principal",
        paramLabel = "p",
        description = "only requests by this principal")
    String principal;

    @Option(
        names = "--status",
        paramLabel = "STATUS,...",
        description = "only these HTTP statuses, comma-separated; 4xx or 5xx match a class")
    String statuses;

    @Option(
        names = "--data-access",
        description =
            "engines' S3 requests the catalog signed and refused, per principal, table and"
                + " minute (floe.data-access), instead of request outcomes")
    boolean dataAccess;

    Tail(Streams streams) {
      this.streams = streams;
    }

    @Override
    public Integer call() {
      TailOptions options;
      try {
        options = TailOptions.audit(common, principal, statuses, dataAccess);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      return TailCommand.run(options, streams.out());
    }
  }
}
