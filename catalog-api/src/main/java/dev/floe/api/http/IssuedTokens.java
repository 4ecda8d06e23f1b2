package dev.floe.api.http;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The answers this instance gave to token creations sent with an {@code Idempotency-Key}, so that a
 * retry can be given the same token. A token is never stored anywhere but as its hash, so the
 * answer is kept only here, in memory: bounded, and forgotten after the key's lifetime. A retry
 * that lands on another instance, or after a restart, finds nothing and is told which token was
 * created.
 */
final class IssuedTokens {
  /** Answers kept at most (a few hundred bytes each). */
  static final int CAPACITY = 10_000;

  private record Answer(String tokenId, byte[] body, long expiresAtMillis) {}

  private final Map<String, Answer> answers = new LinkedHashMap<>();
  private final long lifetimeMillis;
  private final LongSupplier clock;

  IssuedTokens(Duration lifetime, LongSupplier clock) {
    this.lifetimeMillis = lifetime.toMillis();
    this.clock = clock;
  }

  /**
   * @param scope the caller and the Idempotency-Key, as the idempotency ledger scopes keys
   */
  synchronized void remember(String scope, String tokenId, byte[] body) {
    long now = clock.getAsLong();
    forgetExpired(now);
    answers.remove(scope);
    answers.put(scope, new Answer(tokenId, body.clone(), now + lifetimeMillis));
    if (answers.size() > CAPACITY) {
      Iterator<Map.Entry<String, Answer>> oldest = answers.entrySet().iterator();
      oldest.next();
      oldest.remove();
    }
  }

  /** The first answer for this key, if it created this token and is still kept here. */
  synchronized Optional<byte[]> first(String scope, String tokenId) {
    forgetExpired(clock.getAsLong());
    Answer answer = answers.get(scope);
    return answer == null || !answer.tokenId().equals(tokenId)
        ? Optional.empty()
        : Optional.of(answer.body().clone());
  }

  /** Answers are kept in the order they were given, so the expired ones come first. */
  private void forgetExpired(long now) {
    Iterator<Answer> it = answers.values().iterator();
    while (it.hasNext()) {
      if (it.next().expiresAtMillis() > now) {
        return;
      }
      it.remove();
    }
  }
}
