package dev.floe.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.location.Location;
import dev.floe.infra.storage.vending.AccessLevel;
import dev.floe.infra.storage.vending.CredentialVendors;
import dev.floe.infra.storage.vending.VendedCredentials;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Supplier;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTUtil;
import org.slf4j.LoggerFactory;

/**
 * Where a table's files go and what a client gets to reach them: the storage root a new table is
 * placed under (its own or its namespace's storage profile, else the warehouse's), the storage
 * settings and, when asked for with {@code X-Iceberg-Access-Delegation: vended-credentials},
 * temporary credentials scoped to the table's location. Never logs or echoes a credential.
 */
final class StorageAccess {
  static final String ACCESS_DELEGATION = "X-Iceberg-Access-Delegation";
  static final String VENDED_CREDENTIALS = "vended-credentials";
  static final String REMOTE_SIGNING = "remote-signing";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final LocationAuthority locations;
  private final CredentialVendors vendors;

  private final BiPredicate<RequestContext, TableIdentifier> mayWrite;
  private final RemoteSigner signer;

  /**
   * @param mayWrite whether the request's caller may write the table (its role or grants)
   */
  StorageAccess(
      LocationAuthority locations,
      CredentialVendors vendors,
      BiPredicate<RequestContext, TableIdentifier> mayWrite) {
    this.mayWrite = mayWrite;
    this.locations = locations;
    this.vendors = vendors;
    this.signer = new RemoteSigner(locations);
  }

  /**
   * The one place that decides what vended credentials may do: read-only for a past-time view of a
   * warehouse and for a caller that may only read the table (docs/security.md), else read-write.
   */
  AccessLevel accessLevel(RequestContext request, TableIdentifier table) {
    String prefix = request.warehouse();
    if (prefix != null && prefix.indexOf('@') >= 0) {
      return AccessLevel.READ;
    }
    return mayWrite.test(request, table) ? AccessLevel.READ_WRITE : AccessLevel.READ;
  }

  /** True when the client asked for vended credentials (the header is a comma-separated list). */
  static boolean wantsVending(RequestContext request) {
    return asks(request, VENDED_CREDENTIALS);
  }

  private static boolean asks(RequestContext request, String delegation) {
    String header = request.header(ACCESS_DELEGATION);
    if (header == null) {
      return false;
    }
    for (String mechanism : header.split(",")) {
      if (mechanism.trim().toLowerCase(Locale.ROOT).equals(delegation)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the answer for a table at {@code location} tells the client to have its S3 requests
   * signed by the catalog: its storage signs, and the client asked for {@code remote-signing} or
   * for nothing (Iceberg's Java client asks for nothing unless configured to), or for vended
   * credentials that this storage does not vend.
   */
  boolean signs(RequestContext request, String location) {
    if (location == null || !signer.enabledFor(location)) {
      return false;
    }
    return asks(request, REMOTE_SIGNING) || !(wantsVending(request) && vendors.vends(location));
  }

  RemoteSigner signer() {
    return signer;
  }

  /** Non-secret settings of the storage that holds a location (endpoint, path style, region). */
  Map<String, String> clientConfig(String location) {
    return location == null ? Map.of() : vendors.clientConfig(location);
  }

  /**
   * The storage root an entity is placed under, as the location authority decides it (its own
   * storage profile, its namespace's, else the warehouse's root); 400 for an unknown profile.
   */
  Location rootFor(
      String warehouse, Map<String, String> ownProperties, List<Map<String, String>> namespaces) {
    try {
      return locations.root(warehouse, ownProperties, namespaces);
    } catch (LocationAuthority.UnknownProfileException e) {
      throw ApiException.badRequest("%s", e.getMessage());
    }
  }

  /** 400 unless the named storage profile is configured. */
  void requireProfile(String name) {
    if (locations.storage().profile(name).isEmpty()) {
      throw ApiException.badRequest("Storage profile does not exist: %s", name);
    }
  }

  /**
   * 400 unless a register may read this metadata file: inside the storage root it registers into,
   * decided before the file is opened.
   */
  void requireReadable(Location root, String metadataFile) {
    locations
        .readProblem(root, metadataFile)
        .ifPresent(
            problem -> {
              throw ApiException.badRequest("%s", problem);
            });
  }

  /** Properties of the namespace and each of its ancestors, outermost first. */
  static List<Namespace> levels(Namespace namespace) {
    List<Namespace> levels = new ArrayList<>();
    for (int i = 1; i <= namespace.length(); i++) {
      levels.add(Namespace.of(Arrays.copyOf(namespace.levels(), i)));
    }
    return levels;
  }

  /**
   * Fresh credentials for a table whose stored metadata is {@code metadataJson}, or empty when its
   * storage vends none. The location comes from the catalog's own state, validated when the table
   * was created or last changed.
   */
  Optional<VendedCredentials> vend(
      RequestContext request,
      TableIdentifier table,
      String metadataJson,
      Supplier<List<String>> held) {
    return vend(table, metadataJson, held, accessLevel(request, table));
  }

  /** Fresh credentials that may do {@code level} (read-only for a scan plan's files). */
  Optional<VendedCredentials> vend(
      TableIdentifier table, String metadataJson, Supplier<List<String>> held, AccessLevel level) {
    List<String> paths = locations(metadataJson);
    if (paths.size() > 1) {
      throw forbidden(table, "a write path of the table lies outside its location");
    }
    if (!vendors.vends(paths.get(0))) {
      return Optional.empty();
    }
    // Only inside a location the directory holds for this table (checked by the location authority
    // against every other entity's); read only now, as the directory may live on another instance.
    if (!locations.mayVend(paths.get(0), held.get())) {
      throw forbidden(table, "its location is not one the catalog holds for it");
    }
    try {
      return vendors.vend(paths, level);
    } catch (IllegalArgumentException e) {
      throw forbidden(table, e.getMessage());
    } catch (RuntimeException e) {
      // The provider's own message may carry request details; only its kind is passed on.
      LoggerFactory.getLogger(StorageAccess.class)
          .warn("Vending credentials for {} failed: {}", table, e.getClass().getName());
      throw ApiException.serviceUnavailable(
          "Cannot vend credentials for table " + table + ": the credential service did not answer");
    }
  }

  private static ApiException forbidden(TableIdentifier table, String reason) {
    return new ApiException(
        ErrorType.FORBIDDEN, "Cannot vend credentials for table " + table + ": " + reason);
  }

  /**
   * The config of a load answer with vended credentials: the credentials' keys, the storage
   * settings, and where to refresh them.
   */
  Map<String, String> vendedConfig(
      RequestContext request, TableIdentifier table, VendedCredentials credentials) {
    Map<String, String> config = new LinkedHashMap<>(credentials.config());
    String endpoint = refreshEndpoint(request.warehouse(), table);
    config.put("client.refresh-credentials-endpoint", endpoint);
    config.put("client.refresh-credentials-enabled", "true");
    config.put("gcs.oauth2.refresh-credentials-endpoint", endpoint);
    config.put("gcs.oauth2.refresh-credentials-enabled", "true");
    return config;
  }

  /** The table's credentials route, relative to the catalog's URI as clients resolve it. */
  static String refreshEndpoint(String prefix, TableIdentifier table) {
    return tableRoute(prefix, table) + "/credentials";
  }

  /**
   * The config of a load answer whose client has its S3 requests signed: the storage settings, and
   * the table's sign route (under both keys Iceberg's clients read: {@code signer.endpoint}, and
   * {@code s3.signer.endpoint}, which 1.11 still prefers when present).
   */
  Map<String, String> signingConfig(
      RequestContext request, TableIdentifier table, String location) {
    Map<String, String> config = new LinkedHashMap<>(clientConfig(location));
    String endpoint = tableRoute(request.warehouse(), table) + "/sign";
    config.put("s3.remote-signing-enabled", "true");
    config.put("signer.endpoint", endpoint);
    config.put("s3.signer.endpoint", endpoint);
    return config;
  }

  private static String tableRoute(String prefix, TableIdentifier table) {
    return "v1/"
        + RESTUtil.encodeString(prefix)
        + "/namespaces/"
        + RESTUtil.encodeNamespace(table.namespace())
        + "/tables/"
        + RESTUtil.encodeString(table.name());
  }

  /** The table's location first, then every write path of its properties not inside it. */
  List<String> locations(String metadataJson) {
    JsonNode metadata;
    try {
      metadata = JSON.readTree(metadataJson);
    } catch (IOException e) {
      throw new IllegalStateException("Stored table metadata is not JSON", e);
    }
    List<String> paths = new ArrayList<>();
    String location = metadata.path("location").asText();
    paths.add(location);
    JsonNode properties = metadata.path("properties");
    for (String key : LocationAuthority.TABLE_PATH_PROPERTIES) {
      String path = properties.path(key).asText(null);
      if (path != null && !path.isBlank() && !locations.inside(location, path)) {
        paths.add(path);
      }
    }
    return paths;
  }
}
