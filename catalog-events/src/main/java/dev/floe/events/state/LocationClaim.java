package dev.floe.events.state;

import dev.floe.events.FloeJson;
import java.nio.charset.StandardCharsets;

/**
 * Who holds a location, as the directory's location index keeps it (a live entity's location, or a
 * dropped table's location that waits for the purger). The index key is the canonical location;
 * this value keeps the spelling storage is called with.
 *
 * @param holder the key of the entity that holds it (its table or view key)
 * @param location the location as the entity spelled it; null in values written before
 * @param uuid the entity's uuid when known (a purge deletes only what the dropped entity held)
 */
public record LocationClaim(String holder, String location, String uuid) {
  public byte[] toBytes() {
    return FloeJson.toBytes(this);
  }

  /** Reads a claim; values of the first format held only the holder's key, as text. */
  public static LocationClaim fromBytes(byte[] bytes) {
    if (bytes.length > 0 && bytes[0] == '{') {
      return FloeJson.fromBytes(bytes, LocationClaim.class);
    }
    return new LocationClaim(new String(bytes, StandardCharsets.UTF_8), null, null);
  }
}
