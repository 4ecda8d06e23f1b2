package dev.floe.server.it.support;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Generates HTTP requests that must fail and change nothing: wrong methods, hostile paths, queries
 * and warehouse prefixes, malformed bodies ({@link HostileBodies}), bodies over the size limit, and
 * broken HTTP sent over a raw socket. Never a well-formed change of the seeded catalog: a
 * valid-looking write names a missing entity, an existing one (409), a read-only as-of warehouse
 * (403), or carries a requirement that cannot hold.
 *
 * <p>The seeded catalog (see {@link HttpFuzzIT}): namespaces {@code fuzz} and {@code fuzz.inner},
 * tables {@code fuzz.events} and {@code fuzz.inner.logs}. Both namespaces are non-empty, so a
 * DELETE of either is refused; a DELETE of a table only ever names a missing one.
 */
public final class HostileRequests {
  /** One generated request. {@code raw} bytes, when present, go to a socket as they are. */
  public record FuzzRequest(
      String kind,
      String method,
      String target,
      Map<String, String> headers,
      byte[] body,
      boolean chunked,
      byte[] raw,
      boolean mayCloseWithoutAnswer) {
    public boolean head() {
      return "HEAD".equals(method);
    }

    public String describe() {
      String shown =
          body == null
              ? ""
              : new String(body, 0, Math.min(body.length, 160), StandardCharsets.UTF_8);
      String rawShown =
          raw == null
              ? ""
              : new String(raw, 0, Math.min(raw.length, 200), StandardCharsets.ISO_8859_1);
      return kind
          + ": "
          + method
          + " "
          + abbreviate(target)
          + (body == null ? "" : " body[" + body.length + "]=" + shown)
          + (chunked ? " (chunked)" : "")
          + (raw == null ? "" : " raw=" + rawShown.replace("\r\n", "\\r\\n"));
    }
  }

  /** A route of IcebergRoutes (and the health routes FloeServer adds). */
  public record Route(String method, String template) {}

  public static final String NS = "/v1/{prefix}/namespaces/{namespace}";
  public static final String TABLE = NS + "/tables/{table}";
  public static final String VIEW = NS + "/views/{table}";
  public static final List<Route> ROUTES =
      List.of(
          new Route("GET", "/v1/config"),
          new Route("GET", "/v1/{prefix}/namespaces"),
          new Route("POST", "/v1/{prefix}/namespaces"),
          new Route("GET", NS),
          new Route("HEAD", NS),
          new Route("DELETE", NS),
          new Route("POST", NS + "/properties"),
          new Route("GET", NS + "/tables"),
          new Route("POST", NS + "/tables"),
          new Route("GET", TABLE),
          new Route("HEAD", TABLE),
          new Route("POST", TABLE),
          new Route("DELETE", TABLE),
          new Route("POST", TABLE + "/metrics"),
          new Route("POST", NS + "/register"),
          new Route("POST", "/v1/{prefix}/tables/rename"),
          new Route("POST", "/v1/{prefix}/transactions/commit"),
          new Route("GET", NS + "/views"),
          new Route("POST", NS + "/views"),
          new Route("GET", VIEW),
          new Route("HEAD", VIEW),
          new Route("POST", VIEW),
          new Route("DELETE", VIEW),
          new Route("POST", "/v1/{prefix}/views/rename"),
          new Route("POST", NS + "/register-view"),
          new Route("GET", "/metrics"),
          new Route("GET", "/management/v1/lineage/tables/{namespace}/{table}"),
          new Route("GET", "/management/v1/lineage/sources"),
          new Route("GET", "/health/live"),
          new Route("GET", "/health/ready"));

  private static final List<String> METHODS =
      List.of(
          "GET",
          "HEAD",
          "POST",
          "PUT",
          "DELETE",
          "PATCH",
          "OPTIONS",
          "TRACE",
          "FOO",
          "get",
          "M-SEARCH");

  /** Encoded namespace and table segments that exist, and ones that certainly do not. */
  private static final List<String> EXISTING_NAMESPACES = List.of("fuzz", "fuzz%1Finner");

  private static final List<String> MISSING_NAMESPACES =
      List.of("nope", "missing%1Fdeep", "fuzz%1Fghost");
  private static final List<String> MISSING_TABLES =
      List.of("ghost", "events_", "Events", "logs%2Fx");

  /** Segments that must never decode to a seeded name: bad encodings, empty levels, odd bytes. */
  private static final List<String> HOSTILE_SEGMENTS =
      List.of(
          "%ZZ",
          "%",
          "%1",
          "a%ZZb",
          "",
          "%1F",
          "%1F%1F",
          "a%1F%1Fb",
          "%1Fa",
          "fuzz%1F",
          "fuzz%1F%1Finner",
          "%00",
          "a%00b",
          "%C0%AF",
          "%FF%FE",
          "%E2%80%AE",
          "..",
          "%2E%2E",
          ".",
          "%2F",
          "a%2F..%2F..%2Fetc",
          "+",
          "%20",
          "%F0%9F%92%A9",
          "%E5%90%8D%E5%89%8D",
          "null",
          "%24%7Bjndi%3Aldap%3A%2F%2Fx%7D",
          "%27%3B%20DROP",
          "%3Cscript%3E",
          "%u0041",
          "%%",
          "~",
          "*",
          "x".repeat(2000),
          "%1F".repeat(300),
          "a;b",
          "a?b=c");

  /**
   * Warehouse prefixes that name no writable warehouse; reads through the as-of one replay the log.
   */
  private static final List<String> HOSTILE_PREFIXES =
      List.of(
          "nope",
          "DEFAULT",
          "default%00",
          "default@yesterday",
          "default@",
          "%40",
          "default@2999-01-01T00:00:00Z",
          "default@2026-13-45T99:99:99Z",
          "default@-1",
          "default@now",
          "default@1e10",
          "%ZZ",
          "default%40yesterday",
          "default@2000-01-01T00:00:00Z%1F",
          "default%2F..",
          "default%20",
          "default@2000-01-01T00:00:00Z");

  /** Read-only as of a past time: every write through it is 403. */
  private static final String AS_OF = "default@2000-01-01T00:00:00Z";

  private final HostileBodies bodies;
  private final List<Function<Random, FuzzRequest>> cases = new ArrayList<>();

  public HostileRequests(String seededMetadataLocation, boolean includeKnownBugs) {
    this.bodies = new HostileBodies(seededMetadataLocation, includeKnownBugs);
    weight(12, this::wrongMethod);
    weight(13, this::hostilePath);
    weight(10, this::hostileQuery);
    weight(8, this::hostilePrefix);
    weight(37, this::hostileBody);
    weight(8, this::rawProtocol);
    weight(8, this::oddPath);
    weight(4, this::probes);
  }

  private void weight(int weight, Function<Random, FuzzRequest> generator) {
    for (int i = 0; i < weight; i++) {
      cases.add(generator);
    }
  }

  public FuzzRequest generate(Random random) {
    // About one request in a thousand carries a body just over the 10 MiB limit.
    if (random.nextInt(1000) == 0) {
      return oversized(random);
    }
    return cases.get(random.nextInt(cases.size())).apply(random);
  }

  /**
   * A POST whose body is just over the limit, declared or chunked: 413, nothing read into a
   * command.
   */
  public FuzzRequest oversized(Random random) {
    Route route = pick(random, ROUTES.stream().filter(r -> r.method().equals("POST")).toList());
    int size = (int) (10L * 1024 * 1024) + 1 + random.nextInt(64 * 1024);
    byte[] body = new byte[size];
    Arrays.fill(body, (byte) ' ');
    body[0] = '{';
    body[size - 1] = '}';
    return request(
        "oversized",
        "POST",
        fill(route.template(), "default", "fuzz", "events"),
        json(),
        body,
        random.nextBoolean());
  }

  private FuzzRequest wrongMethod(Random random) {
    Route route = pick(random, ROUTES);
    Set<String> allowed = new TreeSet<>();
    ROUTES.stream()
        .filter(r -> r.template().equals(route.template()))
        .forEach(r -> allowed.add(r.method()));
    List<String> wrong = METHODS.stream().filter(m -> !allowed.contains(m)).toList();
    String method = pick(random, wrong);
    String target =
        fill(
            route.template(),
            "default",
            pick(random, EXISTING_NAMESPACES),
            pick(random, List.of("events", "logs")));
    byte[] body = random.nextBoolean() ? null : bodies.any(random);
    return request("wrong-method", method, target, json(), body, false);
  }

  private FuzzRequest hostilePath(Random random) {
    Route route = pick(random, ROUTES.stream().filter(r -> r.template().contains("{")).toList());
    String prefix = random.nextInt(4) == 0 ? pick(random, HOSTILE_SEGMENTS) : "default";
    String namespace =
        random.nextInt(3) == 0 ? pick(random, MISSING_NAMESPACES) : pick(random, HOSTILE_SEGMENTS);
    String table =
        random.nextBoolean() ? pick(random, HOSTILE_SEGMENTS) : pick(random, MISSING_TABLES);
    if (!route.template().contains("{namespace}") || random.nextBoolean()) {
      // Hostile prefix or table with a real namespace: the name itself must fail.
      namespace = random.nextBoolean() ? namespace : pick(random, EXISTING_NAMESPACES);
      if (namespace.startsWith("fuzz")
          && !route.template().contains("{table}")
          && prefix.equals("default")) {
        prefix = pick(random, HOSTILE_SEGMENTS);
      }
    }
    String target = fill(route.template(), prefix, namespace, table);
    byte[] body =
        route.method().equals("POST") ? bodies.forRoute(random, route.template(), false) : null;
    return request("hostile-path", route.method(), target, json(), body, false);
  }

  private FuzzRequest hostileQuery(Random random) {
    List<String> reads =
        List.of(
            "/v1/config",
            "/v1/{prefix}/namespaces",
            NS + "/tables",
            NS + "/views",
            TABLE,
            NS,
            "/management/v1/lineage/tables/{namespace}/{table}",
            "/management/v1/lineage/sources",
            "/metrics",
            "/health/ready");
    String template = pick(random, reads);
    String base =
        fill(
            template,
            "default",
            pick(random, EXISTING_NAMESPACES),
            pick(random, List.of("events", "logs", "ghost")));
    List<String> params = new ArrayList<>();
    int count = 1 + random.nextInt(3);
    for (int i = 0; i < count; i++) {
      params.add(
          switch (random.nextInt(8)) {
            case 0 ->
                "pageToken="
                    + pick(
                        random,
                        List.of(
                            "%ZZ",
                            "",
                            "zzz",
                            "n%2Fdefault%2Ffuzz",
                            "t%2Fdefault%2Ffuzz%2Fevents",
                            "%00%FF",
                            "x".repeat(3000),
                            "%1F",
                            "-1",
                            "null"));
            case 1 ->
                "pageSize="
                    + pick(
                        random,
                        List.of(
                            "0",
                            "-1",
                            "abc",
                            "",
                            "1.5",
                            "99999999999",
                            "2147483648",
                            "-2147483648",
                            "%201",
                            "0x10",
                            "1e3",
                            "%00"));
            case 2 -> "parent=" + pick(random, HOSTILE_SEGMENTS);
            case 3 -> "snapshots=" + pick(random, List.of("bogus", "", "REFS", "all,refs", "%00"));
            case 4 -> "warehouse=" + pick(random, HOSTILE_PREFIXES);
            case 5 -> "repo=" + pick(random, HOSTILE_SEGMENTS);
            case 6 -> randomToken(random, 8) + "=" + randomToken(random, 12);
            default ->
                pick(random, List.of("&", "=", "==", "a=%", "pageSize=1&pageSize=abc", "%ZZ=1"));
          });
    }
    String method =
        template.equals(TABLE) || template.equals(NS)
            ? pick(random, List.of("GET", "HEAD"))
            : "GET";
    return request(
        "hostile-query", method, base + "?" + String.join("&", params), Map.of(), null, false);
  }

  private FuzzRequest hostilePrefix(Random random) {
    Route route =
        pick(random, ROUTES.stream().filter(r -> r.template().contains("{prefix}")).toList());
    // Writes through the as-of warehouse are refused (403) whatever they carry; reads replay the
    // log.
    boolean asOf =
        !route.method().equals("GET") && !route.method().equals("HEAD") && random.nextBoolean();
    String prefix = asOf ? AS_OF : pick(random, HOSTILE_PREFIXES);
    if (prefix.equals(AS_OF) && route.method().equals("GET") && random.nextInt(4) != 0) {
      prefix = "default@yesterday";
    }
    String target =
        fill(
            route.template(),
            prefix,
            pick(random, EXISTING_NAMESPACES),
            pick(random, List.of("events", "logs")));
    byte[] body =
        route.method().equals("POST") ? bodies.forRoute(random, route.template(), true) : null;
    return request("hostile-prefix", route.method(), target, json(), body, false);
  }

  private FuzzRequest hostileBody(Random random) {
    Route route = pick(random, ROUTES.stream().filter(r -> r.method().equals("POST")).toList());
    HostileBodies.Target target = bodies.target(random, route.template());
    Map<String, String> headers =
        switch (random.nextInt(6)) {
          case 0 -> Map.of("Content-Type", "text/plain");
          case 1 -> Map.of();
          case 2 -> Map.of("Content-Type", "application/xml", "Content-Encoding", "gzip");
          default -> json();
        };
    return request(
        "hostile-body", "POST", target.path(), headers, target.body(), random.nextInt(5) == 0);
  }

  private FuzzRequest probes(Random random) {
    String path = pick(random, List.of("/health/live", "/health/ready", "/metrics", "/v1/config"));
    String method = pick(random, List.of("GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS"));
    if (path.equals("/v1/config") && method.equals("GET")) {
      path = "/v1/config?warehouse=" + pick(random, HOSTILE_PREFIXES);
    }
    byte[] body = method.equals("POST") || method.equals("PUT") ? bodies.any(random) : null;
    return request("probe", method, path, json(), body, false);
  }

  private FuzzRequest oddPath(Random random) {
    String path =
        pick(
            random,
            List.of(
                "/",
                "/v1",
                "/v1/",
                "/v1/default",
                "/v1/default/",
                "/v1/default/namespaces/",
                "/metrics/",
                "/health",
                "/health/",
                "/health/live/x",
                "/management",
                "/management/v1/lineage/tables/fuzz",
                "/v1/config/",
                "/V1/CONFIG",
                "/v2/config",
                "/v1/default/tables",
                "/v1/default/views",
                "/favicon.ico",
                "/.well-known/x",
                "/v1/default/namespaces/fuzz/tables/events/metrics/x",
                "/v1/default/namespaces/fuzz/tables/events/",
                "/v1/default/namespaces/fuzz/register/x",
                "//v1/default/namespaces",
                "/v1//namespaces",
                "/v1/default/namespaces/fuzz//tables",
                "/v1/default/namespaces/fuzz/tables/events/../events",
                "/v1/default/namespaces/fuzz/tables/%2E%2E",
                "/v1/default/namespaces/fuzz%2Ftables%2Fevents"));
    String method = pick(random, List.of("HEAD", "DELETE", "GET", "POST", "PUT", "PATCH"));
    byte[] body = method.equals("POST") ? bodies.any(random) : null;
    return request("odd-path", method, path, Map.of(), body, false);
  }

  private FuzzRequest rawProtocol(Random random) {
    String host = "Host: localhost\r\n";
    String close = "Connection: close\r\n";
    String path =
        fill(
            pick(random, List.of(NS, TABLE, "/v1/{prefix}/namespaces")),
            "default",
            "fuzz",
            "ghost");
    int choice = random.nextInt(15);
    String text =
        switch (choice) {
          case 0 -> "GET " + path + "\u0001\u007f" + " HTTP/1.1\r\n" + host + close + "\r\n";
          case 1 -> "GET /v1/default/namespaces/fu zz HTTP/1.1\r\n" + host + close + "\r\n";
          case 2 ->
              "GET " + path + " HTTP/1.1\r\n" + host + "X-Bad\u0001Name: y\r\n" + close + "\r\n";
          case 3 ->
              "GET "
                  + path
                  + " HTTP/1.1\r\n"
                  + host
                  + "X-Big: "
                  + "a".repeat(9000)
                  + "\r\n"
                  + close
                  + "\r\n";
          case 4 -> "GET /" + "a".repeat(5000) + " HTTP/1.1\r\n" + host + close + "\r\n";
          case 5 ->
              "POST /v1/default/namespaces HTTP/1.1\r\n"
                  + host
                  + "Content-Length: "
                  + pick(random, List.of("abc", "-5", "99999999999999999999", "1, 2", "0x10"))
                  + "\r\n"
                  + close
                  + "\r\n{}";
          case 6 ->
              "POST /v1/default/namespaces HTTP/1.1\r\n"
                  + host
                  + "Content-Length: 2\r\nContent-Length: 7\r\n"
                  + close
                  + "\r\n{}";
          case 7 -> "GET " + path + " HTTP/1.0\r\n\r\n";
          case 8 -> "GET http://localhost" + path + " HTTP/1.1\r\n" + host + close + "\r\n";
          case 9 -> "GET * HTTP/1.1\r\n" + host + close + "\r\n";
          case 10 -> "get " + path + " HTTP/1.1\r\n" + host + close + "\r\n";
          case 11 -> "GET " + path + " HTTP/1.1\r\n" + close + "\r\n";
          case 12 ->
              "GET "
                  + path.replace("ghost", "gh%ZZost%00")
                  + " HTTP/1.1\r\n"
                  + host
                  + "X-Nul: a\u0000b\r\n"
                  + close
                  + "\r\n";
          case 13 ->
              "POST /v1/default/namespaces HTTP/1.1\r\n"
                  + host
                  + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n"
                  + close
                  + "\r\n2\r\n{}\r\n0\r\n\r\n";
          default ->
              "POST /v1/default/namespaces HTTP/1.1\r\n"
                  + host
                  + "Transfer-Encoding: chunked\r\n"
                  + close
                  + "\r\n"
                  + pick(
                      random,
                      List.of(
                          "ZZ\r\nabc\r\n0\r\n\r\n",
                          "FFFFFFFFFFFFFFFFFFFF\r\n",
                          "-1\r\n\r\n",
                          "3\r\n{}}\r\nX\r\n"));
        };
    // A broken chunk framing leaves nothing to answer: the server may just close the connection.
    boolean mayClose = choice == 14;
    byte[] raw = text.getBytes(StandardCharsets.ISO_8859_1);
    String method = text.substring(0, Math.max(0, text.indexOf(' ')));
    return new FuzzRequest("raw-protocol", method, path, Map.of(), null, false, raw, mayClose);
  }

  /*
   * Not generated: a request line with an unknown HTTP version ("GET / HTTP/9.9"). Vert.x answers
   * it with a bare 501 Not Implemented and closes, before any Floe code runs
   * (Http1xServerRequestHandler); 505 would be the RFC's status. Nothing a client can change.
   */

  public static String fill(String template, String prefix, String namespace, String table) {
    return template
        .replace("{prefix}", prefix)
        .replace("{namespace}", namespace)
        .replace("{table}", table);
  }

  public static Map<String, String> json() {
    return Map.of("Content-Type", "application/json");
  }

  public static FuzzRequest request(
      String kind,
      String method,
      String target,
      Map<String, String> headers,
      byte[] body,
      boolean chunked) {
    return new FuzzRequest(
        kind, method, target, new LinkedHashMap<>(headers), body, chunked, null, false);
  }

  public static <T> T pick(Random random, List<T> values) {
    return values.get(random.nextInt(values.size()));
  }

  public static String randomToken(Random random, int max) {
    StringBuilder token = new StringBuilder();
    int length = 1 + random.nextInt(max);
    String alphabet = "abcXYZ019_-.~%";
    for (int i = 0; i < length; i++) {
      token.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return token.toString();
  }

  private static String abbreviate(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "…[" + text.length() + "]";
  }
}
