package dev.floe.server.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code floe latency}: measures sequential commit and load round trips ({@link LatencyProbe}). */
@Command(
    name = "latency",
    description =
        "Measure sequential commit and load round trips against a running catalog: it creates a"
            + " namespace latency_<time> with one table, and commits to and loads it COUNT times.",
    footerHeading = "%nExample:%n",
    footer = "  floe latency --url http://localhost:8181 --warehouse default --count 500")
final class LatencyCommand implements Callable<Integer> {
  private final Streams streams;

  @Mixin ServerOptions server;

  @Option(
      names = "--warehouse",
      paramLabel = "W",
      defaultValue = "default",
      description = "the warehouse to measure in (default ${DEFAULT-VALUE})")
  String warehouse;

  @Option(
      names = "--count",
      paramLabel = "N",
      defaultValue = "500",
      description = "round trips to measure, after up to 50 of warm-up (default ${DEFAULT-VALUE})")
  int count;

  LatencyCommand(Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() throws InterruptedException {
    if (count < 1) {
      throw CliFailure.usage("--count needs a positive number, not " + count, null);
    }
    LatencyProbe.run(server.url, warehouse, count, server.token, streams.out());
    return 0;
  }
}
