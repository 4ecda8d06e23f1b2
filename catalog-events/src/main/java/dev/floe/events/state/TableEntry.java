package dev.floe.events.state;

import dev.floe.events.FloeJson;

/**
 * A table name claimed in a namespace's directory.
 *
 * @param commandId the command that claimed it (create, register or rename)
 * @param location the table's location, indexed so that no two tables overlap
 */
public record TableEntry(String commandId, String location) {
  public byte[] toBytes() {
    return FloeJson.toBytes(this);
  }

  public static TableEntry fromBytes(byte[] bytes) {
    return FloeJson.fromBytes(bytes, TableEntry.class);
  }
}
