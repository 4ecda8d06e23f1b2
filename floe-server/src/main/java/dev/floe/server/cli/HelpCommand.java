package dev.floe.server.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.IHelpCommandInitializable2;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code floe help [COMMAND [SUBCOMMAND]]}: the help of the command it names, below the command it
 * belongs to ({@code floe help principals create} or {@code floe principals help create}), or of
 * that command itself. Unlike picocli's own help command, it follows a path of any length.
 */
@Command(
    name = "help",
    helpCommand = true,
    description = "Show the help of a command.",
    footerHeading = "%nExample:%n",
    footer = "  floe help principals create")
final class HelpCommand implements IHelpCommandInitializable2, Runnable {
  @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "a command and its subcommand")
  List<String> path = new ArrayList<>();

  private CommandLine self;
  private Help.ColorScheme colors;
  private PrintWriter out;

  @Override
  public void init(
      CommandLine helpCommandLine, Help.ColorScheme colorScheme, PrintWriter out, PrintWriter err) {
    this.self = helpCommandLine;
    this.colors = colorScheme;
    this.out = out;
  }

  @Override
  public void run() {
    CommandLine command = self.getParent();
    for (String name : path) {
      CommandLine sub = command.getSubcommands().get(name);
      if (sub == null) {
        throw new ParameterException(
            command,
            "unknown command '" + command.getCommandSpec().qualifiedName() + " " + name + "'");
      }
      command = sub;
    }
    command.usage(out, colors);
  }
}
