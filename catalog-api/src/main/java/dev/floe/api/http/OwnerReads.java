package dev.floe.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import dev.floe.projections.NotLocalException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Reads answered by the instance that hosts a key when that is not this one, on the internal
 * routes: the locations a table holds as its warehouse's directory claimed them (vending checks
 * them; the table itself may live elsewhere), and the uuid of the table or view holding a name now
 * (the events endpoint shows a name's grantee only that entity's events). Each request goes with
 * the instances' secret ({@link InternalAuth}) and the caller's own Authorization header, and is
 * guarded like a load.
 */
final class OwnerReads {
  static final String CLAIMED_PATH =
      "/internal/v1/{prefix}/namespaces/{namespace}/tables/{table}/claimed-location";

  /** The uuid holding a table's name now; with {@code ?kind=view}, a view's. */
  static final String HOLDER_PATH =
      "/internal/v1/{prefix}/namespaces/{namespace}/tables/{table}/holder";

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private OwnerReads() {}

  /**
   * The locations the live directory holds for the table, empty when no table holds the name (also
   * for a past-time read: storage access is given only for a location that is still the table's).
   */
  static List<String> held(
      CatalogContext catalog, RequestContext request, String warehouse, TableIdentifier table) {
    try {
      return catalog.queries().heldTableLocations(warehouse, table);
    } catch (NotLocalException owner) {
      // The warehouse's directory lives on another instance than the table: ask it, as the caller.
      return claimed(owner, request, warehouse, table);
    }
  }

  static HttpResult claimedAnswer(List<String> held) {
    ObjectNode body = FloeJson.mapper().createObjectNode();
    held.forEach(body.putArray("locations")::add);
    return new HttpResult(200, FloeJson.toBytes(body), Map.of());
  }

  static HttpResult holderAnswer(Optional<String> uuid) {
    ObjectNode body = FloeJson.mapper().createObjectNode();
    uuid.ifPresentOrElse(u -> body.put("uuid", u), () -> body.putNull("uuid"));
    return new HttpResult(200, FloeJson.toBytes(body), Map.of());
  }

  static List<String> claimed(
      NotLocalException owner, RequestContext request, String warehouse, TableIdentifier table) {
    JsonNode answer =
        get(
            owner,
            request,
            path(warehouse, table, "claimed-location"),
            "Cannot check the location of "
                + table
                + " with the instance that holds its directory; retry");
    List<String> locations = new ArrayList<>();
    answer.path("locations").forEach(location -> locations.add(location.asText()));
    return locations;
  }

  static Optional<String> holder(
      NotLocalException owner,
      RequestContext request,
      String warehouse,
      TableIdentifier name,
      boolean view) {
    JsonNode uuid =
        get(
                owner,
                request,
                path(warehouse, name, "holder") + (view ? "?kind=view" : ""),
                "Cannot learn which entity holds "
                    + name
                    + " from the instance that holds it; retry")
            .path("uuid");
    return uuid.isTextual() ? Optional.of(uuid.asText()) : Optional.empty();
  }

  private static String path(String warehouse, TableIdentifier table, String what) {
    return "/internal/v1/"
        + encode(warehouse)
        + "/namespaces/"
        + encode(String.join(RequestContext.NAMESPACE_SEPARATOR, table.namespace().levels()))
        + "/tables/"
        + encode(table.name())
        + "/"
        + what;
  }

  private static JsonNode get(
      NotLocalException owner, RequestContext request, String path, String unavailable) {
    HttpRequest.Builder call =
        HttpRequest.newBuilder(URI.create("http://" + owner.host() + ":" + owner.port() + path))
            .timeout(Duration.ofSeconds(10))
            .GET();
    String authorization = request.header("Authorization");
    if (authorization != null) {
      call.header("Authorization", authorization);
    }
    request.instanceSecret().ifPresent(secret -> call.header(InternalAuth.HEADER, secret));
    try {
      HttpResponse<byte[]> response =
          HTTP.send(call.build(), HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        throw ApiException.serviceUnavailable(unavailable);
      }
      return FloeJson.mapper().readTree(response.body());
    } catch (IOException e) {
      throw ApiException.serviceUnavailable(unavailable);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ApiException.serviceUnavailable(unavailable);
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
