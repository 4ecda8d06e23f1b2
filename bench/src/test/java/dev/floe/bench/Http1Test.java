package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link Http1} against the JDK's HTTP server. */
class Http1Test {
  private HttpServer server;
  private URI base;
  private final Set<Object> connectionsSeen = ConcurrentHashMap.newKeySet();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          connectionsSeen.add(exchange.getRemoteAddress());
          String path = exchange.getRequestURI().getRawPath();
          String query = exchange.getRequestURI().getRawQuery();
          byte[] request = exchange.getRequestBody().readAllBytes();
          String auth = exchange.getRequestHeaders().getFirst("Authorization");
          String answer =
              exchange.getRequestMethod()
                  + " "
                  + path
                  + (query == null ? "" : "?" + query)
                  + " "
                  + new String(request, StandardCharsets.UTF_8)
                  + " "
                  + auth;
          byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
          switch (path) {
            case "/empty" -> exchange.sendResponseHeaders(204, -1);
            case "/chunked" -> {
              exchange.sendResponseHeaders(200, 0); // 0: chunked
              try (OutputStream out = exchange.getResponseBody()) {
                for (byte b : bytes) {
                  out.write(b);
                  out.flush();
                }
              }
            }
            case "/close" -> {
              exchange.getResponseHeaders().set("Connection", "close");
              exchange.sendResponseHeaders(409, bytes.length);
              exchange.getResponseBody().write(bytes);
            }
            default -> {
              exchange.sendResponseHeaders(
                  200, exchange.getRequestMethod().equals("HEAD") ? -1 : bytes.length);
              if (!exchange.getRequestMethod().equals("HEAD")) {
                exchange.getResponseBody().write(bytes);
              }
            }
          }
          exchange.close();
        });
    server.start();
    base = URI.create("http://localhost:" + server.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void readsFixedLengthAndChunkedBodiesOnOneKeptAliveConnection() throws IOException {
    Http1 http = new Http1();
    RestTarget.Response fixed =
        http.send("POST", base.resolve("/v1/ns%1Fa/tables?x=1"), "{\"a\":\"é\"}", "tok");
    assertThat(fixed.status()).isEqualTo(200);
    assertThat(fixed.body()).isEqualTo("POST /v1/ns%1Fa/tables?x=1 {\"a\":\"é\"} Bearer tok");

    RestTarget.Response chunked = http.send("GET", base.resolve("/chunked"), null, null);
    assertThat(chunked.status()).isEqualTo(200);
    assertThat(chunked.body()).isEqualTo("GET /chunked  null");

    RestTarget.Response head = http.send("HEAD", base.resolve("/anything"), null, null);
    assertThat(head.status()).isEqualTo(200);
    assertThat(head.body()).isEmpty();

    RestTarget.Response empty = http.send("DELETE", base.resolve("/empty"), null, null);
    assertThat(empty.status()).isEqualTo(204);
    assertThat(empty.body()).isEmpty();

    // Every exchange after the first reused its connection.
    assertThat(connectionsSeen).hasSize(1);
  }

  @Test
  void opensANewConnectionAfterTheServerClosedOne() throws IOException {
    Http1 http = new Http1();
    RestTarget.Response closing = http.send("POST", base.resolve("/close"), "{}", null);
    assertThat(closing.status()).isEqualTo(409);
    assertThat(closing.body()).isEqualTo("POST /close {} null");

    RestTarget.Response next = http.send("GET", base.resolve("/after"), null, null);
    assertThat(next.status()).isEqualTo(200);
    assertThat(next.body()).isEqualTo("GET /after  null");
    assertThat(connectionsSeen).hasSize(2);
  }
}
