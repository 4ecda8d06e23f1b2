package dev.floe.infra.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/** Loopback ports for the servers tests start. */
public final class FreePorts {
  /**
   * Below Linux's ephemeral range (32768–60999 by default), from which the kernel picks the source
   * port of every outgoing connection: a port picked there can be taken by some client's connection
   * (a Kafka client's, say) before the server that was to listen on it binds it.
   */
  private static final int LOWEST = 15_000;

  private static final int HIGHEST = 32_000;

  private FreePorts() {}

  /**
   * A port no socket uses now, outside the ephemeral range (another process may still take it
   * later; the tests' servers bind theirs within seconds).
   */
  public static int next() {
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST);
      try (ServerSocket socket = new ServerSocket()) {
        socket.setReuseAddress(false);
        socket.bind(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), port));
        return port;
      } catch (IOException e) {
        // In use: try another.
      }
    }
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
