package dev.floe.infra.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local endpoint that speaks Google's STS token exchange ({@code POST /v1/token}, RFC 8693 form,
 * JSON answer). Records each request's form and answers a numbered downscoped token.
 */
public final class LocalGoogleSts implements AutoCloseable {
  private final HttpServer server;
  private final List<Map<String, String>> requests = new CopyOnWriteArrayList<>();
  private volatile int issued;

  public LocalGoogleSts() {
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext(
        "/v1/token",
        exchange -> {
          Map<String, String> form =
              LocalSts.parseForm(
                  new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          requests.add(form);
          byte[] answer =
              ("{\"access_token\":\""
                      + token(++issued)
                      + "\",\"issued_token_type\":\"urn:ietf:params:oauth:token-type:access_token\","
                      + "\"token_type\":\"Bearer\",\"expires_in\":3600}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
        });
    server.start();
  }

  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/token";
  }

  public List<Map<String, String>> requests() {
    return List.copyOf(requests);
  }

  public static String token(int n) {
    return "downscoped-token-" + n;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
