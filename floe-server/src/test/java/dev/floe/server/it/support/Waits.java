package dev.floe.server.it.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting, in tests, for what the server does in the background (expiry, purges). */
public final class Waits {
  private Waits() {}

  /** Returns once {@code condition} holds; fails, naming {@code what}, after 30 s. */
  public static void until(BooleanSupplier condition, String what) throws InterruptedException {
    until(condition, what, Duration.ofSeconds(30));
  }

  public static void until(BooleanSupplier condition, String what, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Timed out waiting until " + what);
      }
      Thread.sleep(200);
    }
  }
}
