package dev.floe.server.cli;

import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The one place where the command line reports what went wrong: one line on stderr, {@code error:
 * <what failed>; <what to do>}, and the exit status (2 for a command line that cannot work, 1 for a
 * failure of the work). No stack trace reaches the user unless {@code --verbose} was given.
 */
final class ErrorReporter implements IParameterExceptionHandler, IExecutionExceptionHandler {
  static final int FAILED = 1;
  static final int USAGE = 2;

  private final PrintStream err;
  private final boolean verbose;

  ErrorReporter(PrintStream err, String[] args) {
    this.err = err;
    this.verbose = List.of(args).contains(FloeCommand.VERBOSE);
  }

  /** A command line picocli could not parse, or a command refused after parsing it. */
  @Override
  public int handleParseException(ParameterException e, String[] args) {
    report(e, sentence(whatIsWrong(e)), "see " + helpOf(e.getCommandLine()));
    return USAGE;
  }

  /** Picocli's message, but a word where a command was expected is called an unknown command. */
  private static String whatIsWrong(ParameterException e) {
    if (e instanceof UnmatchedArgumentException unmatched
        && !e.getCommandLine().getSubcommands().isEmpty()
        && !unmatched.getUnmatched().isEmpty()
        && !unmatched.getUnmatched().get(0).startsWith("-")) {
      return "unknown command '" + unmatched.getUnmatched().get(0) + "'";
    }
    return e.getMessage();
  }

  @Override
  public int handleExecutionException(Exception e, CommandLine command, ParseResult parsed) {
    if (e instanceof CliFailure failure) {
      report(e, sentence(failure.getMessage()), failure.whatToDo());
      return failure.exitCode();
    }
    Throwable told = telling(e);
    String message =
        told.getMessage() == null ? told.getClass().getSimpleName() : told.getMessage();
    report(
        e,
        command.getCommandSpec().qualifiedName() + " failed: " + sentence(message),
        verbose ? null : "run it again with " + FloeCommand.VERBOSE + " to see where");
    return FAILED;
  }

  /**
   * The outermost exception that says something of its own: wrappers without a message, or whose
   * message is only their cause's, are looked through (a message that adds context, such as which
   * storage check failed, is kept).
   */
  static Throwable telling(Throwable e) {
    Throwable told = e;
    while (told.getCause() != null
        && told.getCause() != told
        && (told.getMessage() == null || told.getMessage().equals(told.getCause().toString()))) {
      told = told.getCause();
    }
    return told;
  }

  private void report(Throwable e, String whatFailed, String whatToDo) {
    err.println("error: " + whatFailed + (whatToDo == null ? "" : "; " + whatToDo));
    if (verbose) {
      e.printStackTrace(err);
    }
    err.flush();
  }

  /** {@code floe <command> --help} for the command that was being parsed. */
  private static String helpOf(CommandLine command) {
    return command.getCommandSpec().qualifiedName() + " --help";
  }

  /**
   * A message as the middle of a line: one line, its first letter in lower case unless its first
   * word is a name ({@code HTTP}, {@code NoSuchTableException}: more than one capital).
   */
  static String sentence(String message) {
    String line = message.strip().replaceAll("\\s*\\R\\s*", " ");
    String firstWord = line.split("[\\s:]", 2)[0];
    if (!line.isEmpty()
        && Character.isUpperCase(line.charAt(0))
        && firstWord.chars().filter(Character::isUpperCase).count() == 1) {
      return Character.toLowerCase(line.charAt(0)) + line.substring(1);
    }
    return line;
  }
}
