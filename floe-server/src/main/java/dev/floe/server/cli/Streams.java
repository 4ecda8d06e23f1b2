package dev.floe.server.cli;

import java.io.PrintStream;

/** Where a command prints: its results on {@code out}, progress and errors on {@code err}. */
public record Streams(PrintStream out, PrintStream err) {}
