package dev.floe.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP relay that holds every request for a fixed time before the server behind it sees it:
 * S3Proxy on this machine behind it answers as an object store a network away does, and the wait
 * costs no CPU (S3Proxy's own work does, as a remote store's would not, so the figures stay
 * conservative).
 *
 * <p>A request is whatever the client sends after the server last answered (or on a new
 * connection); it waits once. A PUT that asks {@code Expect: 100-continue}, as the AWS SDK's do,
 * waits twice: for its headers, and for its body after the server's 100. That is what a round trip
 * per exchange costs against a real store.
 *
 * <pre>
 * java -cp … dev.floe.bench.DelayProxy --port 18610 --upstream 127.0.0.1:18600 --delay-ms 10
 * </pre>
 */
public final class DelayProxy implements AutoCloseable {
  private final ServerSocket server;
  private final InetSocketAddress upstream;
  private final long delayMillis;
  private volatile boolean closed;

  public DelayProxy(int port, InetSocketAddress upstream, Duration delay) throws IOException {
    this.server = new ServerSocket(port, 128, InetAddress.getLoopbackAddress());
    this.upstream = upstream;
    this.delayMillis = delay.toMillis();
    Thread acceptor = new Thread(this::accept, "delay-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return server.getLocalPort();
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = server.accept();
        Socket target;
        try {
          target = new Socket(upstream.getAddress(), upstream.getPort());
        } catch (IOException e) {
          closeQuietly(client);
          throw e;
        }
        client.setTcpNoDelay(true);
        target.setTcpNoDelay(true);
        AtomicBoolean answered = new AtomicBoolean(true);
        pump(client, target, answered, true);
        pump(target, client, answered, false);
      } catch (IOException e) {
        if (!closed) {
          System.err.println("delay proxy: " + e);
        }
      }
    }
  }

  /**
   * Copies one direction of a connection. Towards the server, the first bytes after an answer wait
   * for the delay; towards the client, any bytes mark the exchange answered.
   */
  private void pump(Socket from, Socket to, AtomicBoolean answered, boolean towardsServer) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[64 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  if (towardsServer && answered.getAndSet(false)) {
                    Thread.sleep(delayMillis);
                  } else if (!towardsServer) {
                    answered.set(true);
                  }
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException | InterruptedException e) {
                // the other side closed: close both below
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "delay-proxy-pump");
    thread.setDaemon(true);
    thread.start();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
  }

  /** {@code --port P --upstream host:port --delay-ms D}; runs until the process is stopped. */
  public static void main(String[] args) throws Exception {
    Map<String, String> options = Options.parse(args);
    String[] upstream = options.get("upstream").split(":");
    try (DelayProxy proxy =
        new DelayProxy(
            Integer.parseInt(options.getOrDefault("port", "0")),
            new InetSocketAddress(upstream[0], Integer.parseInt(upstream[1])),
            Duration.ofMillis(Long.parseLong(options.getOrDefault("delay-ms", "10"))))) {
      System.out.println("delay proxy on port " + proxy.port());
      Thread.currentThread().join();
    }
  }
}
