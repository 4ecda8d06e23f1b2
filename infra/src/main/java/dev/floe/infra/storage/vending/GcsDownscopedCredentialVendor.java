package dev.floe.infra.storage.vending;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.storage.config.StorageProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Vends GCS credentials by downscoping the catalog's own OAuth2 token: an OAuth 2.0 token exchange
 * (RFC 8693) at Google's STS with a credential access boundary ({@link GcsAccessBoundary}). The
 * endpoint is configurable so the exchange can be tested against a local server.
 */
public final class GcsDownscopedCredentialVendor implements CredentialVendor {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

  /** The catalog's own token and when it expires. */
  public record SourceToken(String token, Instant expiresAt) {
    @Override
    public String toString() {
      return "SourceToken[expiresAt=" + expiresAt + "]";
    }
  }

  private final StorageProfile storage;
  private final Supplier<SourceToken> sourceToken;
  private final HttpClient http;
  private final Clock clock;

  public GcsDownscopedCredentialVendor(
      StorageProfile storage, Supplier<SourceToken> sourceToken, Clock clock) {
    this.storage = storage;
    this.sourceToken = sourceToken;
    this.clock = clock;
    this.http = HttpClient.newBuilder().connectTimeout(storage.ioTimeout()).build();
  }

  @Override
  public VendedCredentials vend(List<String> locations, AccessLevel access) {
    SourceToken source = sourceToken.get();
    String boundary = GcsAccessBoundary.build(locations, access);
    String form =
        form(
            Map.of(
                "grant_type", "urn:ietf:params:oauth:grant-type:token-exchange",
                "subject_token_type", TOKEN_TYPE,
                "requested_token_type", TOKEN_TYPE,
                "subject_token", source.token(),
                "options", boundary));
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(storage.gcs().stsEndpoint()))
            .timeout(storage.ioTimeout())
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    JsonNode answer;
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        // The body may echo the request; it is not passed on.
        throw new IllegalStateException(
            "GCS token exchange failed with HTTP " + response.statusCode());
      }
      answer = JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("GCS token exchange failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted during the GCS token exchange", e);
    }
    String token = answer.path("access_token").asText(null);
    if (token == null) {
      throw new IllegalStateException("GCS token exchange answered no access_token");
    }
    // A downscoped token lives as long as its source unless the exchange says otherwise.
    Instant expires =
        answer.has("expires_in")
            ? clock.instant().plus(Duration.ofSeconds(answer.get("expires_in").asLong()))
            : source.expiresAt();
    Map<String, String> config = new LinkedHashMap<>();
    config.put("gcs.oauth2.token", token);
    config.put("gcs.oauth2.token-expires-at", Long.toString(expires.toEpochMilli()));
    config.putAll(clientConfig(storage));
    return new VendedCredentials(locations.get(0), config, expires);
  }

  public static Map<String, String> clientConfig(StorageProfile storage) {
    Map<String, String> config = new LinkedHashMap<>();
    if (storage.gcs().projectId() != null) {
      config.put("gcs.project-id", storage.gcs().projectId());
    }
    if (storage.gcs().endpoint() != null) {
      config.put("gcs.service.host", storage.gcs().endpoint());
    }
    return config;
  }

  private static String form(Map<String, String> fields) {
    StringBuilder out = new StringBuilder();
    fields.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            field -> {
              if (out.length() > 0) {
                out.append('&');
              }
              out.append(URLEncoder.encode(field.getKey(), StandardCharsets.UTF_8))
                  .append('=')
                  .append(URLEncoder.encode(field.getValue(), StandardCharsets.UTF_8));
            });
    return out.toString();
  }
}
