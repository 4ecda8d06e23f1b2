package dev.floe.server.it;

import static dev.floe.server.it.support.AuthHttp.expect;
import static dev.floe.server.it.support.AuthHttp.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.Main;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.Browser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OIDC access tokens against a JWKS this test serves itself: a valid token maps its {@code sub} to
 * the principal; an expired one, one for another audience or issuer, and one signed by a key the
 * JWKS does not hold are 401; after the issuer rotates its key, tokens signed by the new key work
 * without a restart and the old key's no longer do.
 */
class OidcIT {
  private static final String ISSUER = "https://issuer.test";
  private static final String AUDIENCE = "floe";
  private static final AtomicReference<String> JWKS = new AtomicReference<>();

  @TempDir static Path dataDir;
  private static HttpServer issuer;
  private static FloeProcess floe;
  private static RSAKey first;
  private static RSAKey second;

  @BeforeAll
  static void start() throws Exception {
    first = new RSAKeyGenerator(2048).keyID("k1").generate();
    second = new RSAKeyGenerator(2048).keyID("k2").generate();
    JWKS.set(new JWKSet(first.toPublicJWK()).toString());
    issuer = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
    issuer.createContext(
        "/jwks",
        exchange -> {
          byte[] body = JWKS.get().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    issuer.createContext("/authorize", OidcIT::authorize);
    issuer.createContext("/token", OidcIT::token);
    issuer.start();
    String issuerUri = "http://localhost:" + issuer.getAddress().getPort();
    floe =
        new FloeProcess(
                dataDir,
                Map.of(
                    "floe.auth",
                    "token",
                    "floe.auth.oidc.issuer",
                    ISSUER,
                    "floe.auth.oidc.jwks-uri",
                    issuerUri + "/jwks",
                    "floe.auth.oidc.audience",
                    AUDIENCE,
                    "floe.auth.oidc.console-client-id",
                    CONSOLE_CLIENT,
                    "floe.auth.oidc.authorization-endpoint",
                    issuerUri + "/authorize",
                    "floe.auth.oidc.token-endpoint",
                    issuerUri + "/token"))
            .start();
    String admin = floe.adminToken();
    // Through the CLI, as an operator would: floe principals create / role.
    assertThat(cli(admin, "principals", "create", "carol", "--kind", "user")).contains("carol");
    assertThat(
            cli(admin, "principals", "role", "carol", "--warehouse", "default", "--role", "reader"))
        .isEqualTo("carol is now reader in warehouse default");
    assertThat(cli(admin, "principals", "list")).containsPattern("carol +user +- +default=reader");
    expect(200, floe.uri(), "POST", "/v1/default/namespaces", admin, "{\"namespace\":[\"oidc\"]}");
  }

  private static String cli(String token, String group, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String[] all = new String[args.length + 5];
    all[0] = group;
    System.arraycopy(args, 0, all, 1, args.length);
    all[args.length + 1] = "--url";
    all[args.length + 2] = floe.uri();
    all[args.length + 3] = "--token";
    all[args.length + 4] = token;
    int status =
        Main.run(
            all,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
    String printed = out.toString(StandardCharsets.UTF_8).trim();
    assertThat(printed).doesNotContain(token);
    return printed;
  }

  @AfterAll
  static void stop() throws Exception {
    if (floe != null) {
      floe.close();
    }
    if (issuer != null) {
      issuer.stop(0);
    }
  }

  /**
   * The console signs in with the issuer: the browser goes to the issuer's sign-in (which approves
   * at once here), comes back with a code, and the console exchanges it, with its PKCE verifier,
   * for an access token that Floe accepts.
   */
  @Test
  void theConsoleSignsInWithTheIssuerUsingPkce() throws Exception {
    assumeTrue(
        Browser.available(),
        "No chromium and chromedriver in /usr/bin: .ci/run installs them (apt chromium"
            + " chromium-driver)");
    try (Browser browser = new Browser()) {
      browser.open(floe.uri() + "/ui/#/w/default");
      browser.await("oidc-sign-in").click();
      assertThat(browser.await("principal").getText()).contains("carol");
      assertThat(browser.driver().getCurrentUrl())
          .as("the code is gone from the address")
          .doesNotContain("code=")
          .endsWith("/ui/#/w/default");
      assertThat(AUTHORIZE_QUERIES)
          .singleElement()
          .satisfies(
              q -> {
                assertThat(q).contains("code_challenge_method=S256", "client_id=" + CONSOLE_CLIENT);
                assertThat(q).doesNotContain("code_verifier");
              });
      assertThat(browser.consoleErrors()).isEmpty();
    }
  }

  private static final String CONSOLE_CLIENT = "floe-console";
  private static final List<String> AUTHORIZE_QUERIES = new CopyOnWriteArrayList<>();
  private static final Map<String, String> CHALLENGES = new ConcurrentHashMap<>();

  /** Approves at once: back to the console with a code bound to the PKCE challenge. */
  private static void authorize(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    AUTHORIZE_QUERIES.add(query);
    Map<String, String> params = params(query);
    String code = UUID.randomUUID().toString();
    CHALLENGES.put(code, params.get("code_challenge"));
    String back =
        params.get("redirect_uri")
            + "?code="
            + code
            + "&state="
            + URLEncoder.encode(params.get("state"), StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Location", back);
    exchange.sendResponseHeaders(302, -1);
    exchange.close();
  }

  /** Gives carol's token for a code whose verifier matches its challenge, once. */
  private static void token(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().add("Access-Control-Allow-Origin", floe.uri());
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    Map<String, String> form =
        params(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    String challenge = CHALLENGES.remove(String.valueOf(form.get("code")));
    String body;
    int status;
    try {
      String expected =
          Base64.getUrlEncoder()
              .withoutPadding()
              .encodeToString(
                  MessageDigest.getInstance("SHA-256")
                      .digest(
                          String.valueOf(form.get("code_verifier"))
                              .getBytes(StandardCharsets.US_ASCII)));
      if (challenge != null
          && challenge.equals(expected)
          && CONSOLE_CLIENT.equals(form.get("client_id"))) {
        status = 200;
        body =
            "{\"access_token\":\""
                + jwt(first, AUDIENCE, ISSUER, 300)
                + "\",\"token_type\":\"Bearer\"}";
      } else {
        status = 400;
        body = "{\"error\":\"invalid_grant\"}";
      }
    } catch (Exception e) {
      throw new IOException(e);
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private static Map<String, String> params(String query) {
    Map<String, String> params = new HashMap<>();
    for (String pair : query == null ? new String[0] : query.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        params.put(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return params;
  }

  private static String jwt(RSAKey key, String audience, String iss, long expiresInSeconds)
      throws Exception {
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .subject("carol")
            .issuer(iss)
            .audience(audience)
            .issueTime(new Date())
            .expirationTime(new Date(System.currentTimeMillis() + expiresInSeconds * 1000))
            .build();
    SignedJWT token =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
    token.sign(new RSASSASigner(key));
    return token.serialize();
  }

  private static int whoami(String token) {
    return send(floe.uri(), "GET", "/management/v1/whoami", token, null).status();
  }

  @Test
  void aValidTokenActsAsItsSubjectWithThatPrincipalsRole() throws Exception {
    String token = jwt(first, AUDIENCE, ISSUER, 300);
    AuthHttp.Response me = send(floe.uri(), "GET", "/management/v1/whoami", token, null);
    assertThat(me.status()).isEqualTo(200);
    assertThat(me.json().get("principal").asText()).isEqualTo("carol");
    assertThat(send(floe.uri(), "GET", "/v1/default/namespaces", token, null).status())
        .isEqualTo(200);
    // A reader may not write.
    assertThat(
            send(floe.uri(), "POST", "/v1/default/namespaces", token, "{\"namespace\":[\"x\"]}")
                .status())
        .isEqualTo(403);
  }

  @Test
  void expiredWrongAudienceWrongIssuerAndWrongKeyAre401() throws Exception {
    assertThat(whoami(jwt(first, AUDIENCE, ISSUER, -300))).as("expired").isEqualTo(401);
    assertThat(whoami(jwt(first, "someone-else", ISSUER, 300))).as("audience").isEqualTo(401);
    assertThat(whoami(jwt(first, AUDIENCE, "https://evil.test", 300))).as("issuer").isEqualTo(401);
    RSAKey impostor = new RSAKeyGenerator(2048).keyID("k1").generate();
    assertThat(whoami(jwt(impostor, AUDIENCE, ISSUER, 300)))
        .as("same kid, other key")
        .isEqualTo(401);
    RSAKey unknown = new RSAKeyGenerator(2048).keyID("k9").generate();
    assertThat(whoami(jwt(unknown, AUDIENCE, ISSUER, 300))).as("unknown key").isEqualTo(401);
    // Still fine with the right key: the refusals did not poison anything.
    assertThat(whoami(jwt(first, AUDIENCE, ISSUER, 300))).isEqualTo(200);
  }

  @Test
  void keyRotationNeedsNoRestart() throws Exception {
    assertThat(whoami(jwt(first, AUDIENCE, ISSUER, 300))).isEqualTo(200);
    JWKS.set(new JWKSet(second.toPublicJWK()).toString());
    assertThat(whoami(jwt(second, AUDIENCE, ISSUER, 300))).as("new key").isEqualTo(200);
    assertThat(whoami(jwt(first, AUDIENCE, ISSUER, 300))).as("retired key").isEqualTo(401);
    JWKS.set(new JWKSet(first.toPublicJWK()).toString());
    assertThat(whoami(jwt(first, AUDIENCE, ISSUER, 300))).as("key back").isEqualTo(200);
  }
}
