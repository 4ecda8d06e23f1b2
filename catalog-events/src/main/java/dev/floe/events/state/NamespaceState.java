package dev.floe.events.state;

import dev.floe.events.FloeJson;
import java.util.Map;
import java.util.TreeMap;

/** A namespace as the directory store holds it. */
public record NamespaceState(Map<String, String> properties, long sequence) {
  public NamespaceState {
    properties = properties == null ? Map.of() : new TreeMap<>(properties);
  }

  public byte[] toBytes() {
    return FloeJson.toBytes(this);
  }

  public static NamespaceState fromBytes(byte[] bytes) {
    return FloeJson.fromBytes(bytes, NamespaceState.class);
  }
}
