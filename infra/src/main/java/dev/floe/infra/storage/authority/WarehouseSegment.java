package dev.floe.infra.storage.authority;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The directory a warehouse gets inside a storage profile's root: its name when that is a plain
 * name, else a safe form with a digest of the name, so two warehouses never share one.
 */
final class WarehouseSegment {
  private WarehouseSegment() {}

  static String of(String warehouse) {
    if (warehouse.matches("[A-Za-z0-9_]{1,64}")) {
      return warehouse;
    }
    return digested(warehouse);
  }

  /** A safe form of the name, then {@code -} and 16 hex digits of its SHA-256. */
  static String digested(String name) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
      String safe = name.replaceAll("[^A-Za-z0-9_]", "_");
      return safe.substring(0, Math.min(safe.length(), 48))
          + "-"
          + HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
