package dev.floe.events.state;

import dev.floe.events.FloeJson;

/**
 * A table name claimed in a namespace's directory.
 *
 * @param commandId the create command that claimed it
 */
public record TableEntry(String commandId) {
  public byte[] toBytes() {
    return FloeJson.toBytes(this);
  }

  public static TableEntry fromBytes(byte[] bytes) {
    return FloeJson.fromBytes(bytes, TableEntry.class);
  }
}
