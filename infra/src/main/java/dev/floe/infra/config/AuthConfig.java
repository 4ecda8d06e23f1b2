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
 */
public record AuthConfig(
    boolean enabled,
    String oidcIssuer,
    String oidcJwksUri,
    String oidcAudience,
    String oidcPrincipalClaim) {
  public static final AuthConfig NONE = new AuthConfig(false, null, null, null, "sub");

  public AuthConfig {
    if (oidcIssuer != null && (oidcJwksUri == null || oidcAudience == null)) {
      throw new IllegalArgumentException(
          "floe.auth.oidc.issuer needs floe.auth.oidc.jwks-uri and floe.auth.oidc.audience");
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
        props.getProperty("floe.auth.oidc.principal-claim", "sub"));
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
