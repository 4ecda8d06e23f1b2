package dev.floe.events.state;

import dev.floe.events.FloeJson;
import java.util.ArrayList;
import java.util.List;

/**
 * A table or view name claimed in a namespace's directory.
 *
 * @param commandId the command that claimed it (create, register or rename)
 * @param location the location it was created or registered at, as spelled; null for a view claimed
 *     before views held locations
 * @param claims every location it holds, as spelled: its first location and those a commit moved it
 *     to (a moved table's earlier files stay where they were). Null in entries written before
 *     tables could move: then the first location alone
 * @param uuid the table's or view's uuid; null in entries written before the directory indexed
 *     uuids
 */
public record TableEntry(String commandId, String location, List<String> claims, String uuid) {
  public TableEntry {
    claims = claims == null ? null : List.copyOf(claims);
  }

  /** An entity holding one location (or none). */
  public TableEntry(String commandId, String location, String uuid) {
    this(commandId, location, location == null ? List.of() : List.of(location), uuid);
  }

  /** An entity of unknown uuid holding one location (or none). */
  public TableEntry(String commandId, String location) {
    this(commandId, location, (String) null);
  }

  /** Every location this entity holds. */
  public List<String> held() {
    if (claims != null) {
      return claims;
    }
    return location == null ? List.of() : List.of(location);
  }

  /** The same entity holding one more location. */
  public TableEntry holding(String another) {
    List<String> more = new ArrayList<>(held());
    more.add(another);
    return new TableEntry(commandId, location, more, uuid);
  }

  /** The same entity, claimed again by another command (a rename). */
  public TableEntry claimedBy(String newCommandId) {
    return new TableEntry(newCommandId, location, held(), uuid);
  }

  public byte[] toBytes() {
    return FloeJson.toBytes(this);
  }

  public static TableEntry fromBytes(byte[] bytes) {
    return FloeJson.fromBytes(bytes, TableEntry.class);
  }
}
