package dev.floe.server.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code floe}: the command line of Floe. Alone it lists the commands; {@code floe help <command>}
 * or {@code floe <command> --help} shows one. {@code bench} is run by {@code bin/floe} from a
 * module of its own, so it is only named here.
 */
@Command(
    name = "floe",
    synopsisSubcommandLabel = "COMMAND",
    description = "Floe, an Apache Iceberg REST catalog whose log of record is Kafka.",
    footerHeading = "%n",
    footer = {
      "  bench       Measure Iceberg REST catalogs side by side (floe bench --help).",
      "",
      "Run 'floe help COMMAND' or 'floe COMMAND --help' for a command's options.",
      "Example:",
      "  bin/floe serve --auth none"
    })
public final class FloeCommand implements Runnable {
  /** The commands after those the caller gives, in the order {@code floe --help} lists them. */
  private static final List<Class<?>> COMMANDS =
      List.of(
          BrokerCommand.class,
          LatencyCommand.class,
          ReplayCommand.class,
          EventsCommand.class,
          AuditCommand.class,
          PrincipalsCommand.class,
          TokensCommand.class,
          GrantsCommand.class,
          VisibilityCommand.class,
          DeletedCommand.class,
          MaintenanceCommand.class,
          HelpCommand.class);

  static final String VERBOSE = "--verbose";

  @Spec CommandSpec spec;

  /** Read from the arguments by {@link ErrorReporter}, which may run before any value is set. */
  @Option(
      names = VERBOSE,
      scope = ScopeType.INHERIT,
      description = "print the stack trace of an error, too")
  boolean verbose;

  /** {@code floe} alone: the list of commands. */
  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * The command line of one run, printing to {@code streams}, with {@link ErrorReporter} for its
   * errors.
   *
   * @param first commands listed first: those of the server ({@code serve}), which this package
   *     cannot name
   */
  public static CommandLine commandLine(Streams streams, String[] args, Object... first) {
    CommandLine floe = new CommandLine(new FloeCommand(), new CommandFactory(streams));
    for (Object command : first) {
      floe.addSubcommand(command);
    }
    COMMANDS.forEach(floe::addSubcommand);
    ErrorReporter errors = new ErrorReporter(streams.err(), args);
    floe.setOut(new PrintWriter(streams.out(), true))
        .setErr(new PrintWriter(streams.err(), true))
        .setParameterExceptionHandler(errors)
        .setExecutionExceptionHandler(errors);
    addHelpOption(floe);
    return floe;
  }

  /**
   * Gives every command {@code -h, --help}. (Not an inherited option: picocli's {@code help}
   * command has one of its own.)
   */
  private static void addHelpOption(CommandLine command) {
    CommandSpec spec = command.getCommandSpec();
    if (spec.findOption("--help") == null) {
      spec.addOption(
          OptionSpec.builder("-h", "--help")
              .usageHelp(true)
              .description("show this help and exit")
              .build());
    }
    command.getSubcommands().values().forEach(FloeCommand::addHelpOption);
  }
}
