package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The relay that stands for a network between the catalog and its object store: every exchange on a
 * connection waits for the delay before the server sees it, and the bytes pass unchanged.
 */
class DelayProxyTest {
  private static final Duration DELAY = Duration.ofMillis(150);

  @Test
  void everyRequestOnAConnectionWaitsForTheDelayAndArrivesIntact() throws Exception {
    try (ServerSocket upstream = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        DelayProxy proxy =
            new DelayProxy(
                0,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), upstream.getLocalPort()),
                DELAY)) {
      Thread echo = new Thread(() -> echoLines(upstream));
      echo.setDaemon(true);
      echo.start();

      try (Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
        OutputStream out = client.getOutputStream();
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
        List<Long> waits = new ArrayList<>();
        for (String line : List.of("GET /lake/a", "PUT /lake/b é")) {
          long start = System.nanoTime();
          out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
          out.flush();
          assertThat(in.readLine()).isEqualTo("echo " + line);
          waits.add(System.nanoTime() - start);
        }

        assertThat(waits).allSatisfy(w -> assertThat(w).isGreaterThanOrEqualTo(DELAY.toNanos()));
      }
    }
  }

  /** Answers each line of its one connection with the line, prefixed. */
  private static void echoLines(ServerSocket server) {
    try (Socket socket = server.accept();
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        out.println("echo " + line);
      }
    } catch (IOException e) {
      // the test closed the connection
    }
  }
}
