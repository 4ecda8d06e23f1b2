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
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The locations a table holds as its warehouse's directory claimed them, read from the instance
 * that hosts the directory when that is not this one (vending checks it; the table itself may live
 * elsewhere). The request goes with the instances' secret ({@link InternalAuth}) and the caller's
 * own Authorization header, and is guarded like a load.
 */
final class ClaimedLocations {
  static final String PATH =
      "/internal/v1/{prefix}/namespaces/{namespace}/tables/{table}/claimed-location";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private ClaimedLocations() {}

  static HttpResult answer(List<String> held) {
    ObjectNode body = FloeJson.mapper().createObjectNode();
    held.forEach(body.putArray("locations")::add);
    return new HttpResult(200, FloeJson.toBytes(body), Map.of());
  }

  static List<String> fetch(
      NotLocalException owner, RequestContext request, TableIdentifier table) {
    String path =
        "/internal/v1/"
            + encode(request.warehouse())
            + "/namespaces/"
            + encode(String.join(RequestContext.NAMESPACE_SEPARATOR, table.namespace().levels()))
            + "/tables/"
            + encode(table.name())
            + "/claimed-location";
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
        throw unavailable(table);
      }
      JsonNode held = FloeJson.mapper().readTree(response.body()).path("locations");
      List<String> locations = new ArrayList<>();
      held.forEach(location -> locations.add(location.asText()));
      return locations;
    } catch (IOException e) {
      throw unavailable(table);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable(table);
    }
  }

  private static ApiException unavailable(TableIdentifier table) {
    return ApiException.serviceUnavailable(
        "Cannot check the location of "
            + table
            + " with the instance that holds its directory; retry");
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
