package dev.floe.events;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of one command, on {@code floe.replies}, keyed by the waiting instance. Exactly one
 * of {@code rejection} and the result fields describes it.
 *
 * @param metadataLocation for table commands: the table's current metadata file
 * @param metadata for table commands: the table's current metadata, as Iceberg's JSON
 * @param properties for namespace commands: the namespace's properties after the command
 */
public record CommandReply(
    String commandId,
    Rejection rejection,
    String metadataLocation,
    String metadata,
    Map<String, String> properties,
    List<String> updated,
    List<String> removed,
    List<String> missing) {
  public CommandReply {
    Objects.requireNonNull(commandId, "commandId");
  }

  public static CommandReply rejected(String commandId, Rejection rejection) {
    return new CommandReply(commandId, rejection, null, null, null, null, null, null);
  }

  public static CommandReply table(String commandId, String metadataLocation, String metadata) {
    return new CommandReply(commandId, null, metadataLocation, metadata, null, null, null, null);
  }

  public static CommandReply done(String commandId) {
    return new CommandReply(commandId, null, null, null, null, null, null, null);
  }

  public static CommandReply namespace(String commandId, Map<String, String> properties) {
    return new CommandReply(commandId, null, null, null, properties, null, null, null);
  }

  public static CommandReply namespaceUpdated(
      String commandId, List<String> updated, List<String> removed, List<String> missing) {
    return new CommandReply(commandId, null, null, null, null, updated, removed, missing);
  }

  public boolean accepted() {
    return rejection == null;
  }
}
