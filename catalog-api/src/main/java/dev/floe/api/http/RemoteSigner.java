package dev.floe.api.http;

import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.config.StorageProfile;
import dev.floe.infra.storage.signing.S3RequestScope;
import dev.floe.infra.storage.signing.S3RequestSigner;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.ImmutableRemoteSignResponse;
import org.apache.iceberg.rest.responses.RemoteSignResponseParser;

/**
 * Decides, then signs, one S3 request an engine asks the catalog to sign for a table: the request's
 * scope ({@link S3RequestScope}: the objects and the prefix it reaches, whether it writes) must lie
 * inside the locations the directory holds for the table, as the location authority compares them;
 * a write needs the right to write the table. Signed with the storage's own credentials ({@link
 * S3RequestSigner}). Never logs or echoes a signature.
 */
final class RemoteSigner {
  private final LocationAuthority locations;
  private final Map<String, S3RequestSigner> signers = new ConcurrentHashMap<>();

  /** Fixed by the configuration: when no storage signs, a load asks nothing more of it. */
  private final boolean anyEnabled;

  RemoteSigner(LocationAuthority locations) {
    this.locations = locations;
    this.anyEnabled = locations.storage().all().stream().anyMatch(StorageProfile::remoteSigning);
  }

  /** The storage that holds {@code location} signs requests. */
  boolean enabledFor(String location) {
    return anyEnabled
        && locations
            .storage()
            .forLocation(location)
            .map(StorageProfile::remoteSigning)
            .orElse(false);
  }

  /** Some warehouse or storage profile signs: the sign route is served and advertised. */
  boolean anyEnabled() {
    return anyEnabled;
  }

  /** Whether a request of this method writes (anything but {@code GET} and {@code HEAD}). */
  static boolean writes(String method) {
    return !"GET".equalsIgnoreCase(method) && !"HEAD".equalsIgnoreCase(method);
  }

  /**
   * The answer to a sign request for {@code table}: 200 with the headers to send; 403 when the
   * request reaches outside the table or writes without the right to; 400 when it is malformed.
   *
   * @param held the locations the directory holds for the table, its own location first
   * @param mayWrite the caller may write the table (in a past-time view of a warehouse, never)
   */
  HttpResult sign(
      TableIdentifier table, List<String> held, boolean mayWrite, RemoteSignRequest request) {
    StorageProfile storage =
        locations
            .storage()
            .forLocation(held.get(0))
            .filter(StorageProfile::remoteSigning)
            .orElseThrow(() -> refused(table, "its storage does not sign requests"));
    if (request.provider() != null && !request.provider().equals("s3")) {
      throw ApiException.badRequest("Cannot sign for provider %s: only s3", request.provider());
    }
    S3RequestSigner signer =
        signers.computeIfAbsent(
            storage.name() + "|" + storage.root(), key -> new S3RequestSigner(storage.s3()));
    if (!signer.region().equals(request.region())) {
      throw ApiException.badRequest(
          "Cannot sign for region %s: the table's storage is in %s",
          request.region(), signer.region());
    }
    String uri = request.uri().toString();
    S3RequestScope scope;
    try {
      scope =
          S3RequestScope.of(
              storage.s3(),
              locations.parse(held.get(0)).bucket(),
              request.method(),
              uri,
              request.headers(),
              request.body());
    } catch (S3RequestScope.Refused e) {
      throw refused(table, e.getMessage());
    }
    if (scope.write() && !mayWrite) {
      throw refused(table, "the caller may only read it, and this request writes");
    }
    Optional<String> outside = scope.outside(locations, held);
    if (outside.isPresent()) {
      throw refused(
          table,
          "the request reaches "
              + S3RequestScope.bounded(outside.get())
              + ", outside the table's location");
    }
    Map<String, List<String>> headers =
        signer.sign(
            request.method().toUpperCase(Locale.ROOT),
            uri,
            request.headers(),
            Optional.ofNullable(request.body()).filter(body -> !body.isEmpty()));
    String json =
        RemoteSignResponseParser.toJson(
            ImmutableRemoteSignResponse.builder().uri(request.uri()).headers(headers).build());
    // Iceberg's client reuses a signature for 30 s when told "private": only reads, which the
    // same caller may repeat; a write is signed each time.
    return new HttpResult(
        200,
        json.getBytes(StandardCharsets.UTF_8),
        Map.of("Cache-Control", scope.write() ? "no-cache" : "private"));
  }

  private static ApiException refused(TableIdentifier table, String reason) {
    return new ApiException(
        ErrorType.FORBIDDEN, "Cannot sign a request for table " + table + ": " + reason);
  }
}
