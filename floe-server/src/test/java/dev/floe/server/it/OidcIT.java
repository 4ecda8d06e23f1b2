package dev.floe.server.it;

import static dev.floe.server.it.support.AuthHttp.expect;
import static dev.floe.server.it.support.AuthHttp.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.cli.ManageCommand;
import dev.floe.server.it.support.AuthHttp;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Date;
import java.util.Map;
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
    issuer.start();
    floe =
        new FloeProcess(
                dataDir,
                Map.of(
                    "floe.auth",
                    "token",
                    "floe.auth.oidc.issuer",
                    ISSUER,
                    "floe.auth.oidc.jwks-uri",
                    "http://localhost:" + issuer.getAddress().getPort() + "/jwks",
                    "floe.auth.oidc.audience",
                    AUDIENCE))
            .start();
    String admin = floe.adminToken();
    // Through the CLI, as an operator would: floe principals create / role.
    assertThat(cli(admin, "principals", "create", "carol", "--kind", "user")).contains("carol");
    assertThat(
            cli(admin, "principals", "role", "carol", "--warehouse", "default", "--role", "reader"))
        .isEqualTo("OK");
    assertThat(cli(admin, "principals", "list")).contains("\"reader\"");
    expect(200, floe.uri(), "POST", "/v1/default/namespaces", admin, "{\"namespace\":[\"oidc\"]}");
  }

  private static String cli(String token, String group, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String[] all = new String[args.length + 4];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--url";
    all[args.length + 1] = floe.uri();
    all[args.length + 2] = "--token";
    all[args.length + 3] = token;
    int status =
        ManageCommand.run(
            group,
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
