package dev.floe.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.api.auth.Tokens;
import dev.floe.events.FloeJson;
import dev.floe.events.access.AccessChange;
import dev.floe.events.access.AccessEntries.Token;
import dev.floe.events.command.ChangeAccessCommand;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.Map;

/**
 * The token routes of the management API: create (the token is in that answer only), list (ids and
 * expiry), revoke. Allowed to the token's principal itself and to superusers.
 */
final class TokenHandlers {
  /** The longest lifetime a token may be given: ten years (of 365 days), in seconds. */
  static final long MAX_LIFETIME_SECONDS = Duration.ofDays(3650).toSeconds();

  private static final Map<String, String> NO_STORE = Map.of("Cache-Control", "no-store");

  private final CatalogContext catalog;
  private final ManagementHandlers.AccessSync sync;
  private final IssuedTokens issued;

  TokenHandlers(CatalogContext catalog, ManagementHandlers.AccessSync sync) {
    this.catalog = catalog;
    this.sync = sync;
    this.issued =
        new IssuedTokens(catalog.config().idempotencyKeyLifetime(), System::currentTimeMillis);
  }

  /** A new token, shown once in this answer; only its hash is kept. */
  Future<HttpResult> handleCreateToken(RequestContext request) {
    String principal = request.param("principal");
    long expiresAt =
        request.hasBody()
            ? expiresAtMillis(request.json().get("expires-in-seconds"), System.currentTimeMillis())
            : 0;
    String token = Tokens.newToken();
    String id = Tokens.newTokenId();
    ChangeAccessCommand command =
        new ChangeAccessCommand(
            catalog.header(request),
            new AccessChange.IssueToken(id, principal, Tokens.hash(token), expiresAt));
    // The answer is kept as soon as the token is stored, before the sync: a retry after a sync
    // that failed (503, the change applied) still gets the token.
    return catalog
        .submit(command)
        .map(
            reply -> {
              String created = reply.issuedTokenId();
              if (!id.equals(created)) {
                return retried(request, created);
              }
              ObjectNode body = tokenJson(new Token(id, principal, null, expiresAt));
              body.put("token", token);
              byte[] answer = FloeJson.toBytes(body);
              if (command.header().idempotencyKey() != null) {
                issued.remember(scope(request), id, answer);
              }
              return new HttpResult(201, answer, NO_STORE);
            })
        .compose(answer -> sync.everywhere().map(v -> answer));
  }

  /**
   * A retry with the Idempotency-Key of a creation that already issued a token (the token this
   * request drew was never stored): the first answer when this instance gave it, else 409 naming
   * the token to revoke, since no one else can show it again.
   */
  private HttpResult retried(RequestContext request, String created) {
    return issued
        .first(scope(request), created)
        .map(answer -> new HttpResult(201, answer, NO_STORE))
        .orElseThrow(
            () ->
                new ApiException(
                    ErrorType.ALREADY_EXISTS,
                    created == null
                        ? "This Idempotency-Key already created a token, which is shown only in"
                            + " the first answer: list the principal's tokens, revoke it and"
                            + " create another"
                        : "This Idempotency-Key already created token "
                            + created
                            + ", which is shown only in the first answer and is not held by this"
                            + " instance: revoke it (DELETE /management/v1/tokens/"
                            + created
                            + ") and create another"));
  }

  /** Whose key it is: the idempotency ledger scopes keys to the caller. */
  private static String scope(RequestContext request) {
    return request.principalName() + "/" + request.header("Idempotency-Key");
  }

  /**
   * When a token expires, from the request's {@code expires-in-seconds}: 0 (never) when absent,
   * else a whole number of seconds from 1 to {@link #MAX_LIFETIME_SECONDS}; 400 otherwise (a larger
   * one would overflow into a token that never expires, or one already expired).
   */
  static long expiresAtMillis(JsonNode seconds, long nowMillis) {
    if (seconds == null || seconds.isNull()) {
      return 0;
    }
    if (!seconds.isIntegralNumber()
        || !seconds.canConvertToLong()
        || seconds.asLong() < 1
        || seconds.asLong() > MAX_LIFETIME_SECONDS) {
      throw ApiException.badRequest(
          "Invalid expires-in-seconds: must be a whole number from 1 to %d (ten years)",
          MAX_LIFETIME_SECONDS);
    }
    return nowMillis + seconds.asLong() * 1000;
  }

  Future<HttpResult> handleListTokens(RequestContext request) {
    String principal = request.param("principal");
    ObjectNode body = FloeJson.mapper().createObjectNode();
    ArrayNode tokens = body.putArray("tokens");
    catalog.access().tokens().stream()
        .filter(t -> t.principal().equals(principal))
        .forEach(t -> tokens.add(tokenJson(t)));
    return Future.succeededFuture(new HttpResult(200, FloeJson.toBytes(body), Map.of()));
  }

  Future<HttpResult> handleRevokeToken(RequestContext request) {
    String id = request.param("token");
    return catalog
        .submit(new ChangeAccessCommand(catalog.header(request), new AccessChange.RevokeToken(id)))
        .compose(reply -> sync.everywhere())
        .map(v -> HttpResult.noContent());
  }

  /** A token's public fields: never the token or its hash. */
  private static ObjectNode tokenJson(Token token) {
    ObjectNode node = FloeJson.mapper().createObjectNode();
    node.put("id", token.id());
    node.put("principal", token.principal());
    if (token.expiresAtMillis() > 0) {
      node.put("expires-at-ms", token.expiresAtMillis());
    }
    return node;
  }
}
