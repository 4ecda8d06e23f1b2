package dev.floe.api.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.floe.infra.config.AuthConfig;
import java.net.MalformedURLException;
import java.net.URI;
import java.text.ParseException;
import java.util.Set;

/**
 * Checks OIDC/JWT access tokens: signature against the issuer's JWKS (fetched again when a token
 * names a key it does not know, so key rotation needs no restart), issuer, audience, expiry (30 s
 * of clock skew), and maps a claim to the principal's name.
 */
public final class OidcVerifier {
  /** A token that does not pass; the message names the check, never the token. */
  public static final class InvalidTokenException extends Exception {
    InvalidTokenException(String message) {
      super(message);
    }
  }

  private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
  private final String principalClaim;

  public OidcVerifier(AuthConfig config) {
    JWKSource<SecurityContext> keys;
    try {
      keys =
          JWKSourceBuilder.create(URI.create(config.oidcJwksUri()).toURL())
              .rateLimited(false)
              .retrying(true)
              .build();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("Invalid floe.auth.oidc.jwks-uri", e);
    }
    processor.setJWSKeySelector(
        new JWSVerificationKeySelector<>(
            Set.of(
                JWSAlgorithm.RS256,
                JWSAlgorithm.RS384,
                JWSAlgorithm.RS512,
                JWSAlgorithm.ES256,
                JWSAlgorithm.ES384,
                JWSAlgorithm.PS256),
            keys));
    DefaultJWTClaimsVerifier<SecurityContext> claims =
        new DefaultJWTClaimsVerifier<>(
            config.oidcAudience(),
            new JWTClaimsSet.Builder().issuer(config.oidcIssuer()).build(),
            Set.of("exp", config.oidcPrincipalClaim()));
    claims.setMaxClockSkew(30);
    processor.setJWTClaimsSetVerifier(claims);
    this.principalClaim = config.oidcPrincipalClaim();
  }

  /** The principal's name the token carries. */
  public String verify(String token) throws InvalidTokenException {
    try {
      JWTClaimsSet claims = processor.process(token, null);
      Object value = claims.getClaim(principalClaim);
      if (!(value instanceof String name) || name.isEmpty()) {
        throw new InvalidTokenException("The token's " + principalClaim + " claim is not a name");
      }
      return name;
    } catch (ParseException e) {
      throw new InvalidTokenException("The bearer token is not a JWT");
    } catch (BadJOSEException e) {
      throw new InvalidTokenException("The bearer token was refused: " + e.getMessage());
    } catch (JOSEException e) {
      throw new InvalidTokenException("The bearer token could not be checked");
    }
  }
}
