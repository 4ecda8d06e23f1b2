package dev.floe.events.state;

import dev.floe.events.FloeJson;

/**
 * An expired namespace's storage area waiting for the purger: everything under it that no live
 * entity holds and that is older than the expunge is deleted.
 *
 * @param location the area, as the location authority spelled it
 * @param expungedAtMs when the namespace was expunged: a file written since belongs to something
 *     else (a namespace created again under that name, a staged table) and is never deleted
 */
public record PendingAreaPurge(String location, long expungedAtMs) {
  public byte[] toBytes() {
    return FloeJson.toBytes(this);
  }

  public static PendingAreaPurge fromBytes(byte[] bytes) {
    return FloeJson.fromBytes(bytes, PendingAreaPurge.class);
  }
}
