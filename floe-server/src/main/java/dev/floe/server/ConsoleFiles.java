package dev.floe.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import dev.floe.infra.config.AuthConfig;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Serves the web console at {@code /ui} from the jar ({@code ui/} on the class path), and redirects
 * {@code /} there. Only files the jar holds are served: a path is looked up as a name in a fixed
 * set of extensions, never resolved on a file system. Every answer forbids loading anything from
 * elsewhere ({@code Content-Security-Policy}), so the console works offline and sends nothing to
 * third parties.
 */
final class ConsoleFiles {
  static final String PREFIX = "/ui";

  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "svg", "image/svg+xml",
          "png", "image/png",
          "ico", "image/x-icon");
  private static final String POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'%s; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

  private final Map<String, byte[]> cache = new ConcurrentHashMap<>();
  private final byte[] settings;
  private final String policy;

  /**
   * @param auth how callers sign in: the console asks {@code console-config.json} first, so it
   *     never sends a request bound to be refused just to learn it; with the issuer's sign-in
   *     configured, the console may also call the issuer's token endpoint (and nothing else)
   */
  ConsoleFiles(AuthConfig auth) {
    ObjectNode config = FloeJson.mapper().createObjectNode();
    config.put("auth", auth.enabled() ? "token" : "none");
    AuthConfig.ConsoleSignIn oidc = auth.enabled() ? auth.console() : null;
    if (oidc != null) {
      config
          .putObject("oidc")
          .put("clientId", oidc.clientId())
          .put("authorizationEndpoint", oidc.authorizationEndpoint())
          .put("tokenEndpoint", oidc.tokenEndpoint())
          .put("scope", oidc.scope());
    }
    settings = FloeJson.toBytes(config);
    policy = String.format(POLICY, oidc == null ? "" : " " + origin(oidc.tokenEndpoint()));
  }

  private static String origin(String url) {
    URI uri = URI.create(url);
    return uri.getScheme() + "://" + uri.getRawAuthority();
  }

  /** True when the request was the console's (answered), false when it is the API's. */
  boolean handle(HttpServerRequest request) {
    String path = request.path();
    if (request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD) {
      return false;
    }
    if (path.equals("/favicon.ico")) {
      // Browsers ask for it unbidden; the console names its own icon.
      request.response().setStatusCode(204).end();
      return true;
    }
    if (path.equals("/") || path.equals(PREFIX)) {
      request.response().setStatusCode(302).putHeader("Location", PREFIX + "/").end();
      return true;
    }
    if (!path.startsWith(PREFIX + "/")) {
      return false;
    }
    String name = path.substring(PREFIX.length() + 1);
    if (name.isEmpty()) {
      name = "index.html";
    }
    byte[] file =
        name.equals("console-config.json")
            ? settings
            : name.matches("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*\\.[a-z]+") ? load(name) : null;
    var response = request.response();
    response.putHeader("Content-Security-Policy", policy);
    response.putHeader("X-Content-Type-Options", "nosniff");
    response.putHeader("Referrer-Policy", "no-referrer");
    if (file == null) {
      response.setStatusCode(404).putHeader("Content-Type", "text/plain").end("Not found");
      return true;
    }
    String extension = name.substring(name.lastIndexOf('.') + 1);
    response.putHeader(
        "Content-Type", extension.equals("json") ? "application/json" : TYPES.get(extension));
    response.putHeader("Cache-Control", "no-cache");
    if (request.method() == HttpMethod.HEAD) {
      response.putHeader("Content-Length", Integer.toString(file.length)).end();
    } else {
      response.end(Buffer.buffer(file));
    }
    return true;
  }

  private byte[] load(String name) {
    String extension = name.substring(name.lastIndexOf('.') + 1);
    if (!TYPES.containsKey(extension)) {
      return null;
    }
    return cache.computeIfAbsent(
        name,
        n -> {
          try (InputStream in = ConsoleFiles.class.getResourceAsStream("/ui/" + n)) {
            return in == null ? null : in.readAllBytes();
          } catch (IOException e) {
            return null;
          }
        });
  }
}
