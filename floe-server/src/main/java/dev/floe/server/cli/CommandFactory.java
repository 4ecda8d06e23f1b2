package dev.floe.server.cli;

import picocli.CommandLine;
import picocli.CommandLine.IFactory;

/**
 * Makes the commands picocli runs: a command whose constructor takes {@link Streams} prints to the
 * streams of this run (so a test can run the command line in its own JVM); anything else is made as
 * picocli would.
 */
final class CommandFactory implements IFactory {
  private final Streams streams;

  CommandFactory(Streams streams) {
    this.streams = streams;
  }

  @Override
  public <K> K create(Class<K> type) throws Exception {
    try {
      return type.getDeclaredConstructor(Streams.class).newInstance(streams);
    } catch (NoSuchMethodException e) {
      return CommandLine.defaultFactory().create(type);
    }
  }
}
