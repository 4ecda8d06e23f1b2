package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link NoopServer}, started as the benchmark starts it: a JVM of its own. */
class NoopServerTest {
  @Test
  void answersEveryRequestWithTheBodyUntilClosed() throws IOException {
    String body = "{\"metadata-location\":\"file:/w/t/metadata/00001-é.metadata.json\"}";
    Http1 http = new Http1();
    URI uri;
    try (NoopServer.Running server = NoopServer.start(body.getBytes(StandardCharsets.UTF_8))) {
      uri =
          server.sameRequest(URI.create("http://catalog:8181/v1/p/namespaces/a%1Fb/tables/t?x=1"));
      assertThat(uri.getRawPath()).isEqualTo("/v1/p/namespaces/a%1Fb/tables/t");
      assertThat(uri.getRawQuery()).isEqualTo("x=1");
      for (int i = 0; i < 3; i++) {
        RestTarget.Response answer = http.send("GET", uri, null, "token");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo(body);
      }
    }
    // Closed: its JVM has exited, so nothing answers on the port any more.
    URI gone = uri;
    assertThatThrownBy(() -> new Http1().send("GET", gone, null, null))
        .isInstanceOf(IOException.class);
  }
}
