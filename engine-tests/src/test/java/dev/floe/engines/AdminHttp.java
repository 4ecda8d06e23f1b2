package dev.floe.engines;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.testing.FloeProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Requests to Floe's REST and management APIs with the admin token, for the engine tests. */
final class AdminHttp {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AdminHttp() {}

  /** A request that must answer {@code status}; its JSON (an empty object for no body). */
  static JsonNode expect(FloeProcess floe, int status, String method, String path, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(floe.uri() + path))
            .timeout(Duration.ofSeconds(60))
            .header("Authorization", "Bearer " + floe.adminToken())
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    HttpResponse<String> response =
        HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode())
        .as(method + " " + path + ": " + response.body())
        .isEqualTo(status);
    return response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
  }
}
