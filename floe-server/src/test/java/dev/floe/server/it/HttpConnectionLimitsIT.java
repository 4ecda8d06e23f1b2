package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.RawHttp;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP server's connection bounds against a running server with {@code
 * floe.http.header-timeout=PT3S} and {@code floe.http.max-connections=12}: a request head sent
 * slowly is cut off at the header timeout however busily it trickles in, a kept-alive connection
 * that sends no next request is closed after it, and connections beyond the cap are closed at once
 * while the server goes on serving once they are gone; {@code /metrics} counts them.
 */
class HttpConnectionLimitsIT {
  private static final long HEADER_TIMEOUT_MILLIS = 3_000;
  private static final int MAX_CONNECTIONS = 12;
  private static final byte[] LIVE =
      "GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  @TempDir static Path dataDir;
  private static FloeProcess floe;
  private static URI server;

  @BeforeAll
  static void start() throws InterruptedException {
    floe =
        new FloeProcess(
                dataDir,
                Map.of(
                    "floe.http.header-timeout",
                    "PT3S",
                    "floe.http.max-connections",
                    String.valueOf(MAX_CONNECTIONS)))
            .start();
    server = URI.create(floe.uri());
    // The readiness probes of the start leave their connections open: wait for the header timeout
    // to close them, so each test starts with none open.
    Thread.sleep(HEADER_TIMEOUT_MILLIS + 1_000);
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (floe != null) {
      floe.close();
    }
  }

  @Test
  void aRequestHeadTricklingInIsCutOffAtTheHeaderTimeout() throws Exception {
    try (Socket socket = connect()) {
      long opened = System.nanoTime();
      OutputStream out = socket.getOutputStream();
      out.write("GET /health/live HTTP/1.1\r\nHost: localhost\r\nX-Slow: ".getBytes());
      socket.setSoTimeout(250);
      boolean closed = false;
      while (!closed && millisSince(opened) < 20_000) {
        try {
          out.write('a'); // a byte every 250 ms: sending slowly does not extend the deadline
          out.flush();
          int answered = socket.getInputStream().read();
          assertThat(answered).as("the server answered an incomplete request head").isEqualTo(-1);
          closed = true;
        } catch (SocketTimeoutException e) {
          // still open
        } catch (SocketException e) {
          closed = true; // reset while writing
        }
      }
      assertThat(closed).as("the slow connection was closed").isTrue();
      assertThat(millisSince(opened)).isBetween(HEADER_TIMEOUT_MILLIS - 500, 10_000L);
    }
  }

  @Test
  void aKeptAliveConnectionWithoutANextRequestIsClosedAfterTheHeaderTimeout() throws Exception {
    try (Socket socket = connect()) {
      socket.getOutputStream().write(LIVE);
      assertThat(RawHttp.read(socket.getInputStream(), false).status()).isEqualTo(200);
      socket.getOutputStream().write(LIVE);
      assertThat(RawHttp.read(socket.getInputStream(), false).status())
          .as("a second request on the kept-alive connection")
          .isEqualTo(200);
      long answered = System.nanoTime();
      socket.setSoTimeout(15_000);
      assertThat(readOrEnd(socket.getInputStream())).isEqualTo(-1);
      assertThat(millisSince(answered)).isBetween(HEADER_TIMEOUT_MILLIS - 500, 10_000L);
    }
  }

  @Test
  void connectionsBeyondTheCapAreClosedAtOnceAndServingGoesOnOnceTheyClose() throws Exception {
    List<Socket> sockets = new ArrayList<>();
    List<Long> openedAt = new ArrayList<>();
    long refusedBefore;
    try (Socket watcher = connect()) {
      // The server counts a close when its close handler has run, which may be after the client
      // saw the connection end: wait until it counts only this one, so the cap is known to hold
      // MAX_CONNECTIONS - 1 more.
      refusedBefore = awaitOnlyItselfOpen(watcher);
      for (int i = 0; i < MAX_CONNECTIONS - 1 + 4; i++) {
        sockets.add(connect());
        openedAt.add(System.nanoTime());
      }
      long[] closedAfter = closingTimes(sockets, openedAt);
      int refused = 0;
      int heldUntilTimeout = 0;
      for (long millis : closedAfter) {
        if (millis >= 0 && millis < 1_500) {
          refused++;
        } else if (millis >= HEADER_TIMEOUT_MILLIS - 500) {
          heldUntilTimeout++;
        }
      }
      assertThat(refused).as("connections closed at once").isEqualTo(4);
      assertThat(heldUntilTimeout)
          .as("connections held until the header timeout")
          .isEqualTo(MAX_CONNECTIONS - 1);
    } finally {
      for (Socket socket : sockets) {
        socket.close();
      }
    }
    Live live = liveOnceTheServerSeesTheCloses();
    assertThat(live.status()).as("serving goes on once the connections are closed").isEqualTo(200);
    try (Socket socket = connect()) {
      assertThat(metric(socket, "floe_http_connections_refused_total") - refusedBefore)
          .as("connections counted as refused in /metrics (and probes refused before)")
          .isEqualTo(4 + live.refusedProbes());
    }
  }

  /**
   * Asks {@code /metrics} on {@code watcher} until the server counts one open connection (the
   * watcher), for up to 5 s; answers the refused connections counted so far.
   */
  private static long awaitOnlyItselfOpen(Socket watcher) throws IOException, InterruptedException {
    long started = System.nanoTime();
    while (metric(watcher, "floe_http_connections_open") != 1) {
      assertThat(millisSince(started))
          .as("the server counts only one open connection")
          .isLessThan(5_000);
      Thread.sleep(50);
    }
    return metric(watcher, "floe_http_connections_refused_total");
  }

  /** One unlabelled metric's value, asked on a connection the caller keeps (auth is off here). */
  private static long metric(Socket socket, String name) throws IOException {
    socket.setSoTimeout(10_000);
    socket
        .getOutputStream()
        .write(
            "GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    RawHttp.Response metrics = RawHttp.read(socket.getInputStream(), false);
    assertThat(metrics.status()).as("GET /metrics").isEqualTo(200);
    return new String(metrics.body(), StandardCharsets.UTF_8)
        .lines()
        .filter(line -> line.startsWith(name + " "))
        .mapToLong(line -> (long) Double.parseDouble(line.substring(name.length() + 1)))
        .findFirst()
        .orElseThrow(() -> new AssertionError(name + " is not in /metrics"));
  }

  /** The last status of {@code /health/live}, and how many probes before it were refused. */
  private record Live(int status, int refusedProbes) {}

  /**
   * The status of {@code /health/live} on a new connection, asked again for up to 5 s: the server
   * learns of the closes above asynchronously, and until it has counted them a new connection is
   * still one beyond the cap (closed at once, -1 here).
   */
  private static Live liveOnceTheServerSeesTheCloses() throws IOException, InterruptedException {
    long started = System.nanoTime();
    int refused = 0;
    int status = RawHttp.exchange(server, LIVE, false, 10_000).status();
    while (status != 200 && millisSince(started) < 5_000) {
      refused += status == -1 ? 1 : 0;
      Thread.sleep(100);
      status = RawHttp.exchange(server, LIVE, false, 10_000).status();
    }
    return new Live(status, refused);
  }

  /** For each socket, how long after it opened the server closed it (-1: still open at 12 s). */
  private static long[] closingTimes(List<Socket> sockets, List<Long> openedAt) throws IOException {
    long[] closedAfter = new long[sockets.size()];
    Arrays.fill(closedAfter, -1);
    long started = System.nanoTime();
    int open = sockets.size();
    while (open > 0 && millisSince(started) < 12_000) {
      for (int i = 0; i < sockets.size(); i++) {
        if (closedAfter[i] >= 0) {
          continue;
        }
        sockets.get(i).setSoTimeout(10);
        try {
          if (readOrEnd(sockets.get(i).getInputStream()) == -1) {
            closedAfter[i] = millisSince(openedAt.get(i));
            open--;
          }
        } catch (SocketTimeoutException e) {
          // still open
        }
      }
    }
    return closedAfter;
  }

  /** The next byte, or -1 when the server closed or reset the connection. */
  private static int readOrEnd(InputStream in) throws IOException {
    try {
      return in.read();
    } catch (SocketTimeoutException e) {
      throw e;
    } catch (SocketException e) {
      return -1;
    }
  }

  private static Socket connect() throws IOException {
    return new Socket(server.getHost(), server.getPort());
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }
}
