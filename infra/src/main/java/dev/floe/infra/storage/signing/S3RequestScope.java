package dev.floe.infra.storage.signing;

import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.config.StorageProfile.S3Settings;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What one S3 request a client asks the catalog to sign would touch: whether it reads or writes,
 * the objects it names (its own key, a copy's source, every key of a batch delete) and the prefix
 * it lists, each as an {@code s3://bucket/key} location for the location authority to place. Only
 * the requests Iceberg's {@code S3FileIO} makes are understood: object reads, writes, deletes and
 * multipart uploads, a listing by prefix ({@code ListObjectsV2}) and a batch delete ({@code
 * DeleteObjects}); anything else, and any spelling that could name another place than it appears to
 * (another host, presigned query parameters, a repeated parameter, a percent-encoded separator), is
 * {@link Refused}.
 *
 * <p>The host must be the storage's endpoint, addressed path-style ({@code endpoint/bucket/key}) or
 * virtual-host style ({@code bucket.endpoint/key}); without an endpoint, AWS's S3 hosts of the
 * storage's region.
 *
 * @param write whether the request writes (PUT, POST, DELETE) rather than reads (GET, HEAD)
 * @param objects the objects it reads or writes, as {@code s3://bucket/key} locations
 * @param listPrefix the prefix a listing covers, as an {@code s3://bucket/prefix} location
 */
public record S3RequestScope(boolean write, List<String> objects, Optional<String> listPrefix) {

  /** A request the catalog does not sign, and why. */
  public static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message);
    }
  }

  private static final Set<String> LIST_PARAMETERS =
      Set.of(
          "list-type",
          "prefix",
          "continuation-token",
          "delimiter",
          "encoding-type",
          "fetch-owner",
          "max-keys",
          "start-after",
          "x-id");

  private static final Map<String, Set<String>> OBJECT_PARAMETERS =
      Map.of(
          "GET", Set.of("x-id", "partNumber", "uploadId"),
          "HEAD", Set.of("x-id", "partNumber"),
          "PUT", Set.of("x-id", "partNumber", "uploadId"),
          "POST", Set.of("x-id", "uploads", "uploadId"),
          "DELETE", Set.of("x-id", "uploadId"));

  /**
   * @param headers the request's headers as the client will send them (names in any case)
   * @param body the request's body, sent only with a batch delete; null otherwise
   */
  public static S3RequestScope of(
      S3Settings s3,
      String bucket,
      String method,
      String uri,
      Map<String, List<String>> headers,
      String body) {
    String verb = method == null ? "" : method.toUpperCase(Locale.ROOT);
    if (!OBJECT_PARAMETERS.containsKey(verb)) {
      throw new Refused("Cannot sign a " + bounded(String.valueOf(method)) + " request");
    }
    URI parsed;
    try {
      parsed = new URI(uri);
    } catch (URISyntaxException | NullPointerException e) {
      throw new Refused("Cannot sign a request to a malformed URI");
    }
    String key = keyOf(s3, bucket, parsed);
    Map<String, String> query = query(parsed.getRawQuery());
    Map<String, String> header = lowerCase(headers);
    refuseHeaders(header);
    boolean write = !verb.equals("GET") && !verb.equals("HEAD");
    if (key.isEmpty()) {
      return bucketRequest(bucket, verb, query, header, body);
    }
    allowOnly(query, OBJECT_PARAMETERS.get(verb), verb + " of an object");
    if (query.containsKey("uploads") && !query.get("uploads").isEmpty()) {
      throw new Refused("Cannot sign a request with a value for 'uploads'");
    }
    if (body != null && !body.isEmpty()) {
      throw new Refused("Cannot sign an object request that sends its body for signing");
    }
    List<String> objects = new ArrayList<>();
    objects.add("s3://" + bucket + "/" + key);
    String copySource = header.get("x-amz-copy-source");
    if (copySource != null) {
      if (!verb.equals("PUT")) {
        throw new Refused("Cannot sign a copy that is not a PUT");
      }
      objects.add(copySource(copySource));
    }
    return new S3RequestScope(write, List.copyOf(objects), Optional.empty());
  }

  /**
   * The first place the request reaches outside the locations the entity holds ({@code held}, as
   * the directory placed them), if any: every object inside one, a listing's prefix inside one.
   */
  public Optional<String> outside(LocationAuthority authority, Collection<String> held) {
    for (String object : objects) {
      if (!authority.mayReach(object, held)) {
        return Optional.of(object);
      }
    }
    return listPrefix.filter(prefix -> !authority.mayReach(prefix, held));
  }

  private static S3RequestScope bucketRequest(
      String bucket,
      String verb,
      Map<String, String> query,
      Map<String, String> header,
      String body) {
    if (header.containsKey("x-amz-copy-source")) {
      throw new Refused("Cannot sign a copy to a bucket");
    }
    if (verb.equals("GET") && "2".equals(query.get("list-type"))) {
      allowOnly(query, LIST_PARAMETERS, "a listing");
      String prefix = query.get("prefix");
      if (prefix == null || prefix.isEmpty()) {
        throw new Refused("Cannot sign a listing without a prefix");
      }
      return new S3RequestScope(
          false, List.of(), Optional.of("s3://" + bucket + "/" + escapeKey(prefix)));
    }
    if (verb.equals("POST") && "".equals(query.get("delete"))) {
      allowOnly(query, Set.of("delete", "x-id"), "a batch delete");
      if (body == null || body.isEmpty()) {
        throw new Refused("Cannot sign a batch delete without its body");
      }
      // The signer signs the body's hash, so the signature holds for the keys checked here only; a
      // client that names another hash would send another body.
      String hash = sha256(body);
      String clientHash = header.get("x-amz-content-sha256");
      if (clientHash != null && !clientHash.equals(hash)) {
        throw new Refused(
            "Cannot sign a batch delete whose x-amz-content-sha256 is not its body's");
      }
      List<String> objects =
          DeleteObjectsBody.keys(body).stream()
              .map(k -> "s3://" + bucket + "/" + escapeKey(k))
              .toList();
      return new S3RequestScope(true, objects, Optional.empty());
    }
    throw new Refused("Cannot sign a " + verb + " request to a bucket");
  }

  /**
   * The object key a URI names under {@code bucket}, still percent-encoded as sent (the location
   * authority decodes it), empty for the bucket itself.
   */
  private static String keyOf(S3Settings s3, String bucket, URI uri) {
    if (uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
      throw new Refused("Cannot sign a request whose URI has user information or a fragment");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    if (!path.isEmpty() && !path.startsWith("/")) {
      throw new Refused("Cannot sign a request with a relative path");
    }
    if (path.indexOf(';') >= 0) {
      // Servlet-based stores strip ";parameters" from path segments ("..;" would climb out).
      throw new Refused("Cannot sign a request whose path holds ';'");
    }
    String rest = path.isEmpty() ? "" : path.substring(1);
    for (Endpoint endpoint : endpoints(s3)) {
      if (!scheme.equals(endpoint.scheme()) || port(uri) != endpoint.port()) {
        continue;
      }
      // Only the addressing style the storage is configured with, the one clients are told: a
      // store without virtual hosts would read "bucket.endpoint/a/b" as bucket "a".
      if (!s3.pathStyleAccess() && host.equals(bucket + "." + endpoint.host())) {
        return rest;
      }
      if (s3.pathStyleAccess() && host.equals(endpoint.host())) {
        int slash = rest.indexOf('/');
        String first = slash < 0 ? rest : rest.substring(0, slash);
        if (!first.equals(bucket)) {
          throw new Refused("Cannot sign a request to another bucket than the table's");
        }
        return slash < 0 ? "" : rest.substring(slash + 1);
      }
    }
    throw new Refused(
        "Cannot sign a request to "
            + (host.isEmpty() ? "this URI" : bounded(host))
            + ": not the table's storage endpoint, addressed "
            + (s3.pathStyleAccess() ? "path style" : "virtual-host style"));
  }

  private record Endpoint(String scheme, String host, int port) {}

  /** Where the storage is reached: its endpoint, or AWS's S3 hosts of its region. */
  private static List<Endpoint> endpoints(S3Settings s3) {
    if (s3.endpoint() != null) {
      URI endpoint = URI.create(s3.endpoint());
      return List.of(
          new Endpoint(
              endpoint.getScheme().toLowerCase(Locale.ROOT),
              endpoint.getHost().toLowerCase(Locale.ROOT),
              port(endpoint)));
    }
    String region = s3.region() == null ? "us-east-1" : s3.region();
    List<Endpoint> hosts = new ArrayList<>();
    hosts.add(new Endpoint("https", "s3." + region + ".amazonaws.com", 443));
    if (region.equals("us-east-1")) {
      hosts.add(new Endpoint("https", "s3.amazonaws.com", 443));
    }
    return hosts;
  }

  private static int port(URI uri) {
    if (uri.getPort() >= 0) {
      return uri.getPort();
    }
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  /** The query's parameters, decoded; a repeated or a presigning parameter is refused. */
  private static Map<String, String> query(String raw) {
    Map<String, String> parameters = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return parameters;
    }
    for (String pair : raw.split("&", -1)) {
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      if (name.toLowerCase(Locale.ROOT).startsWith("x-amz-")) {
        throw new Refused("Cannot sign a request that carries presigning parameters");
      }
      if (parameters.put(name, value) != null) {
        throw new Refused(
            "Cannot sign a request that repeats the query parameter " + bounded(name));
      }
    }
    return parameters;
  }

  private static String decode(String encoded) {
    try {
      return URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new Refused("Cannot sign a request with a malformed query");
    }
  }

  private static void allowOnly(Map<String, String> query, Set<String> allowed, String what) {
    for (String name : query.keySet()) {
      if (!allowed.contains(name)) {
        throw new Refused("Cannot sign " + what + " with the query parameter " + bounded(name));
      }
    }
  }

  /** A header name as HTTP has it (RFC 9110's token). */
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  /** CR, LF, NUL and the other control characters but tab, which no header value may hold. */
  private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x08\\x0a-\\x1f\\x7f]");

  /** A caller's text in a refusal: no longer than a line. */
  public static String bounded(String text) {
    return text.length() <= 120 ? text : text.substring(0, 120) + "…";
  }

  /** Canned ACLs that give no one but the bucket's owner more (Iceberg's {@code s3.acl}). */
  private static final Set<String> OWNER_ACLS =
      Set.of("private", "bucket-owner-read", "bucket-owner-full-control");

  /**
   * Headers that would send the request elsewhere than its URI says ({@code Host}) or give its
   * object rights, locks or redirects beyond the catalog's say (a canned ACL but the owner's,
   * grants, object lock, website redirects): never signed.
   */
  private static void refuseHeaders(Map<String, String> header) {
    String acl = header.get("x-amz-acl");
    if (acl != null && !OWNER_ACLS.contains(acl)) {
      throw new Refused("Cannot sign a request with the canned ACL " + bounded(acl));
    }
    for (String name : header.keySet()) {
      if (name.equals("host")
          || name.startsWith("x-amz-grant-")
          || name.startsWith("x-amz-object-lock-")
          || name.equals("x-amz-bypass-governance-retention")
          || name.equals("x-amz-website-redirect-location")) {
        throw new Refused("Cannot sign a request with the header " + bounded(name));
      }
    }
  }

  private static Map<String, String> lowerCase(Map<String, List<String>> headers) {
    Map<String, String> lower = new LinkedHashMap<>();
    if (headers == null) {
      return lower;
    }
    headers.forEach(
        (name, values) -> {
          if (!TOKEN.matcher(name).matches()) {
            throw new Refused("Cannot sign a request with a malformed header name");
          }
          if (values != null
              && values.stream().anyMatch(v -> v == null || CONTROL.matcher(v).find())) {
            throw new Refused("Cannot sign a request with a control character in a header");
          }
          String key = name.toLowerCase(Locale.ROOT);
          if (values != null && values.size() > 1 && key.startsWith("x-amz-")) {
            throw new Refused("Cannot sign a request that repeats the header " + bounded(name));
          }
          if (lower.put(key, values == null || values.isEmpty() ? "" : values.get(0)) != null) {
            throw new Refused("Cannot sign a request that repeats the header " + bounded(name));
          }
        });
    return lower;
  }

  /** {@code x-amz-copy-source}: {@code [/]bucket/key[?versionId=…]}, percent-encoded. */
  private static String copySource(String value) {
    String source = value.startsWith("/") ? value.substring(1) : value;
    int question = source.indexOf('?');
    if (question >= 0) {
      throw new Refused("Cannot sign a copy of an object version");
    }
    int slash = source.indexOf('/');
    if (slash <= 0 || slash == source.length() - 1) {
      throw new Refused("Cannot sign a copy with a malformed x-amz-copy-source");
    }
    String sourceBucket = decode(source.substring(0, slash));
    if (!sourceBucket.equals(sourceBucket.toLowerCase(Locale.ROOT))) {
      throw new Refused("Cannot sign a copy from a bucket named with capitals");
    }
    return "s3://" + sourceBucket + "/" + source.substring(slash + 1);
  }

  /**
   * A raw key as a location's path: only the characters a location gives another meaning are
   * escaped ({@code %}, {@code ?}, {@code #}, {@code \}); the authority refuses the rest of what
   * could climb out ({@code .}, {@code ..}, empty segments).
   */
  static String escapeKey(String key) {
    StringBuilder out = new StringBuilder(key.length());
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      switch (c) {
        case '%' -> out.append("%25");
        case '?' -> out.append("%3F");
        case '#' -> out.append("%23");
        case '\\' -> out.append("%5C");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  private static String sha256(String body) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
