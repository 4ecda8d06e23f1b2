package dev.floe.server.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Sign requests sent as Iceberg's {@code S3FileIO} sends them ({@code POST …/tables/{t}/sign},
 * {@code RemoteSignRequest} JSON), and signed requests sent on to the S3 server as the engine
 * would.
 *
 * @param tables the tables' route, {@code <catalog>/v1/<prefix>/namespaces/<ns>/tables/}
 */
public record SignRequests(String tables) {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  public HttpResponse<String> sign(
      String table, String token, String method, String uri, String body) throws Exception {
    return sign(table, token, method, uri, body, Map.of());
  }

  /** A request of the storage's region and provider {@code s3}, with {@code headers}. */
  public HttpResponse<String> sign(
      String table,
      String token,
      String method,
      String uri,
      String body,
      Map<String, List<String>> headers)
      throws Exception {
    ObjectNode request = request(method, uri, "s3", "us-east-1");
    ObjectNode h = (ObjectNode) request.get("headers");
    h.putArray("amz-sdk-invocation-id").add("test");
    headers.forEach((name, values) -> values.forEach(h.withArray(name)::add));
    if (body != null) {
      request.put("body", body);
    }
    return post(table, token, request);
  }

  /** A request naming its own provider and region, with no header. */
  public HttpResponse<String> signAs(
      String table, String token, String method, String uri, String provider, String region)
      throws Exception {
    return post(table, token, request(method, uri, provider, region));
  }

  private static ObjectNode request(String method, String uri, String provider, String region) {
    ObjectNode request = JSON.createObjectNode();
    request.put("region", region);
    request.put("method", method);
    request.put("uri", uri);
    request.putObject("headers");
    request.put("provider", provider);
    return request;
  }

  private HttpResponse<String> post(String table, String token, ObjectNode request)
      throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(tables + table + "/sign"))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(request)))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Sends a signed request as the engine would, with the headers the catalog answered; 200. */
  public static String send(String method, String uri, JsonNode headers) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(uri)).method(method, HttpRequest.BodyPublishers.noBody());
    headers
        .fields()
        .forEachRemaining(
            header -> {
              String name = header.getKey().toLowerCase(Locale.ROOT);
              if (!name.equals("host") && !name.equals("content-length")) {
                header.getValue().forEach(v -> request.header(header.getKey(), v.asText()));
              }
            });
    HttpResponse<String> response =
        HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.body();
  }

  /**
   * A refusal with the ErrorModel and nothing signed: no signature and not the storage's {@code
   * secret} in the answer.
   */
  public static void assertRefused(HttpResponse<String> response, int status, String secret)
      throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    JsonNode error = JSON.readTree(response.body()).path("error");
    assertThat(error.path("code").asInt()).isEqualTo(status);
    assertThat(error.path("message").asText()).isNotEmpty();
    assertThat(response.body()).doesNotContain("AWS4-HMAC-SHA256").doesNotContain(secret);
  }
}
