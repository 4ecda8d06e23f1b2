package dev.floe.api.auth;

import dev.floe.events.access.AccessEntries.Token;
import dev.floe.infra.config.AuthConfig;
import dev.floe.projections.access.AccessSnapshot;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Turns a request's {@code Authorization} header into a {@link Caller}: a Floe API token (looked up
 * by its hash) or, when configured, an OIDC access token. Failures name the reason, never the
 * token.
 */
public final class Authenticator {
  /** Why a request is not authenticated: answered 401. */
  public static final class NotAuthenticatedException extends Exception {
    NotAuthenticatedException(String message) {
      super(message);
    }
  }

  private final AuthConfig config;
  private final Supplier<AccessSnapshot> access;
  private final OidcVerifier oidc;

  public Authenticator(AuthConfig config, Supplier<AccessSnapshot> access) {
    this.config = config;
    this.access = access;
    this.oidc = config.oidc() ? new OidcVerifier(config) : null;
  }

  public boolean enabled() {
    return config.enabled();
  }

  public Caller authenticate(String authorization) throws NotAuthenticatedException {
    if (!config.enabled()) {
      return Caller.ANONYMOUS;
    }
    if (authorization == null || authorization.isBlank()) {
      throw new NotAuthenticatedException(
          "Missing bearer token: send Authorization: Bearer <token>");
    }
    String[] parts = authorization.trim().split("\\s+", 2);
    if (parts.length != 2 || !parts[0].equalsIgnoreCase("Bearer") || parts[1].isEmpty()) {
      throw new NotAuthenticatedException("Unsupported authorization: expected a bearer token");
    }
    String token = parts[1];
    if (token.startsWith(Tokens.PREFIX)) {
      Optional<Token> known = access.get().tokenByHash(Tokens.hash(token));
      if (known.isEmpty()) {
        throw new NotAuthenticatedException("Unknown or revoked token");
      }
      if (known.get().expiredAt(System.currentTimeMillis())) {
        throw new NotAuthenticatedException("Expired token " + known.get().id());
      }
      return Caller.principal(known.get().principal());
    }
    if (oidc == null) {
      throw new NotAuthenticatedException("Unknown or revoked token");
    }
    try {
      return Caller.principal(oidc.verify(token));
    } catch (OidcVerifier.InvalidTokenException e) {
      throw new NotAuthenticatedException(e.getMessage());
    }
  }
}
