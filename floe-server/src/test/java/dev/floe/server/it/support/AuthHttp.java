package dev.floe.server.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.testing.FloeProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** Plain JSON requests with an optional bearer token, for the access-control tests. */
public final class AuthHttp {
  public static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  public record Response(int status, String body) {
    public JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private AuthHttp() {}

  public static Response send(String base, String method, String path, String token, String body) {
    return send(base, method, path, token, body, Map.of());
  }

  /** With extra request headers (e.g. {@code Idempotency-Key}). */
  public static Response send(
      String base,
      String method,
      String path,
      String token,
      String body,
      Map<String, String> headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(60))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    headers.forEach(request::header);
    try {
      HttpResponse<String> response =
          CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(response.statusCode(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Sends and insists on the status (set-up steps). */
  public static Response expect(
      int status, String base, String method, String path, String token, String body) {
    Response response = send(base, method, path, token, body);
    if (response.status() != status) {
      throw new AssertionError(
          method + " " + path + " answered " + response.status() + ": " + response.body());
    }
    return response;
  }

  /** A principal with the writer role on {@code default}, and its token. */
  public static String writerToken(FloeProcess floe, String name) {
    String token = principalWithToken(floe.uri(), floe.adminToken(), name);
    expect(
        204,
        floe.uri(),
        "PUT",
        "/management/v1/principals/" + name + "/roles/default",
        floe.adminToken(),
        "{\"role\":\"writer\"}");
    return token;
  }

  /** Creates a principal with a token and returns the token. */
  public static String principalWithToken(String base, String admin, String name) {
    expect(201, base, "POST", "/management/v1/principals", admin, "{\"name\":\"" + name + "\"}");
    return expect(201, base, "POST", "/management/v1/principals/" + name + "/tokens", admin, "{}")
        .json()
        .get("token")
        .asText();
  }
}
