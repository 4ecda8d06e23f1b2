package dev.floe.infra.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Loopback ports for the servers tests start. */
public final class FreePorts {
  private FreePorts() {}

  /** A port no socket listens on now (the kernel's pick; another process may take it later). */
  public static int next() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
