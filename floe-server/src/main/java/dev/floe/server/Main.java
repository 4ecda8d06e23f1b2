package dev.floe.server;

import dev.floe.server.cli.FloeCommand;
import dev.floe.server.cli.Streams;
import java.io.PrintStream;
import picocli.CommandLine;

/** The {@code floe} command line ({@link FloeCommand}): {@code floe --help} lists its commands. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs one command line in this JVM, printing to {@code out} and {@code err}.
   *
   * @return the exit status: 0 done, 1 failed, 2 a command line that cannot work
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return commandLine(args, out, err).execute(args);
  }

  /** The command line of one run, every command with it, ready to parse {@code args}. */
  public static CommandLine commandLine(String[] args, PrintStream out, PrintStream err) {
    Streams streams = new Streams(out, err);
    return FloeCommand.commandLine(streams, args, new ServeCommand(streams));
  }
}
