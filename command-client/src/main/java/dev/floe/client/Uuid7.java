package dev.floe.client;

import java.security.SecureRandom;
import java.util.UUID;

/** UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits; sorts by creation time. */
public final class Uuid7 {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Uuid7() {}

  public static UUID next() {
    long millis = System.currentTimeMillis();
    long randA = RANDOM.nextInt(1 << 12);
    long msb = (millis << 16) | (0x7L << 12) | randA;
    long lsb = (RANDOM.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
    return new UUID(msb, lsb);
  }

  public static boolean isUuid7(String value) {
    try {
      UUID uuid = UUID.fromString(value);
      return uuid.version() == 7 && uuid.variant() == 2 && uuid.toString().equalsIgnoreCase(value);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
