package dev.floe.server.cli;

/**
 * A command failed in a way the user can act on: {@link ErrorReporter} prints it as one line,
 * {@code error: <what failed>; <what to do>}, and exits with {@link #exitCode()}.
 */
public final class CliFailure extends RuntimeException {
  private final String whatToDo;
  private final int exitCode;

  /** A failure of the work itself (an unreachable server, a refused request): exit status 1. */
  public CliFailure(String whatFailed, String whatToDo) {
    this(whatFailed, whatToDo, ErrorReporter.FAILED, null);
  }

  public CliFailure(String whatFailed, String whatToDo, Throwable cause) {
    this(whatFailed, whatToDo, ErrorReporter.FAILED, cause);
  }

  private CliFailure(String whatFailed, String whatToDo, int exitCode, Throwable cause) {
    super(whatFailed, cause);
    this.whatToDo = whatToDo;
    this.exitCode = exitCode;
  }

  /** A command line that cannot work as given, found after parsing: exit status 2. */
  public static CliFailure usage(String whatFailed, String whatToDo) {
    return new CliFailure(whatFailed, whatToDo, ErrorReporter.USAGE, null);
  }

  /** What the user can do about it, or null when there is nothing to add to the message. */
  String whatToDo() {
    return whatToDo;
  }

  int exitCode() {
    return exitCode;
  }
}
