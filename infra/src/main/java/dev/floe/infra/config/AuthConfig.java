package dev.floe.infra.config;

import java.util.Properties;

/**
 * How requests are authenticated: Floe API tokens (always, unless {@code none}) and, when an issuer
 * is configured, OIDC/JWT access tokens checked against the issuer's JWKS.
 *
 * @param enabled false only with {@code floe.auth=none}: every request acts as an unrestricted
 *     {@code anonymous} (local experiments only)
 * @param oidcIssuer the {@code iss} a JWT must carry, or null when OIDC is off
 * @param oidcJwksUri where the issuer publishes its signing keys
 * @param oidcAudience the {@code aud} a JWT must carry
 * @param oidcPrincipalClaim the claim naming the principal (default {@code sub})
 * @param console how the web console signs people in with the issuer (authorization code with
 *     PKCE), or null when it offers only pasting a token
 */
public record AuthConfig(
    boolean enabled,
    String oidcIssuer,
    String oidcJwksUri,
    String oidcAudience,
    String oidcPrincipalClaim,
    ConsoleSignIn console) {
  public static final AuthConfig NONE = new AuthConfig(false, null, null, null, "sub", null);

  /**
   * The console's sign-in with the OIDC issuer: a public client (no secret) using the authorization
   * code flow with PKCE, redirected back to {@code /ui/}.
   *
   * @param clientId {@code floe.auth.oidc.console-client-id}
   * @param authorizationEndpoint {@code floe.auth.oidc.authorization-endpoint}
   * @param tokenEndpoint {@code floe.auth.oidc.token-endpoint}
   * @param scope {@code floe.auth.oidc.console-scope} (default {@code openid})
   */
  public record ConsoleSignIn(
      String clientId, String authorizationEndpoint, String tokenEndpoint, String scope) {}

  public AuthConfig {
    if (oidcIssuer != null && (oidcJwksUri == null || oidcAudience == null)) {
      throw new IllegalArgumentException(
          "floe.auth.oidc.issuer needs floe.auth.oidc.jwks-uri and floe.auth.oidc.audience");
    }
    if (console != null && oidcIssuer == null) {
      throw new IllegalArgumentException(
          "floe.auth.oidc.console-client-id needs floe.auth.oidc.issuer");
    }
  }

  public boolean oidc() {
    return enabled && oidcIssuer != null;
  }

  static AuthConfig fromProperties(Properties props) {
    String mode = props.getProperty("floe.auth", "token").trim();
    if (!mode.equals("token") && !mode.equals("none")) {
      throw new IllegalArgumentException("floe.auth must be token or none, not " + mode);
    }
    return new AuthConfig(
        mode.equals("token"),
        blankToNull(props.getProperty("floe.auth.oidc.issuer")),
        blankToNull(props.getProperty("floe.auth.oidc.jwks-uri")),
        blankToNull(props.getProperty("floe.auth.oidc.audience")),
        props.getProperty("floe.auth.oidc.principal-claim", "sub"),
        console(props));
  }

  private static ConsoleSignIn console(Properties props) {
    String clientId = blankToNull(props.getProperty("floe.auth.oidc.console-client-id"));
    if (clientId == null) {
      return null;
    }
    String authorize = blankToNull(props.getProperty("floe.auth.oidc.authorization-endpoint"));
    String token = blankToNull(props.getProperty("floe.auth.oidc.token-endpoint"));
    if (authorize == null || token == null) {
      throw new IllegalArgumentException(
          "floe.auth.oidc.console-client-id needs floe.auth.oidc.authorization-endpoint and"
              + " floe.auth.oidc.token-endpoint");
    }
    return new ConsoleSignIn(
        clientId, authorize, token, props.getProperty("floe.auth.oidc.console-scope", "openid"));
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
