package dev.floe.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The first answers to keyed token creations, kept in memory for retries: only for the same key and
 * the token it created, and never past the key's lifetime or the bound.
 */
class IssuedTokensTest {
  private final AtomicLong now = new AtomicLong(1_000);
  private final IssuedTokens issued = new IssuedTokens(Duration.ofMinutes(30), now::get);

  @Test
  void aRetryOfTheSameKeyGetsTheFirstAnswer() {
    issued.remember("alice/k1", "tok-1", bytes("{\"token\":\"floe_a\"}"));

    assertThat(issued.first("alice/k1", "tok-1"))
        .hasValueSatisfying(b -> assertThat(text(b)).isEqualTo("{\"token\":\"floe_a\"}"));
    assertThat(issued.first("alice/k1", "tok-2")).as("another token").isEmpty();
    assertThat(issued.first("bob/k1", "tok-1")).as("another caller's key").isEmpty();
  }

  @Test
  void anAnswerIsForgottenAfterTheKeysLifetime() {
    issued.remember("alice/k1", "tok-1", bytes("a"));
    now.addAndGet(Duration.ofMinutes(30).toMillis() - 1);
    assertThat(issued.first("alice/k1", "tok-1")).isPresent();
    now.addAndGet(1);
    assertThat(issued.first("alice/k1", "tok-1")).isEmpty();
  }

  @Test
  void pastTheBoundTheOldestAnswersAreForgotten() {
    for (int i = 0; i <= IssuedTokens.CAPACITY; i++) {
      issued.remember("alice/k" + i, "tok-" + i, bytes("a"));
    }
    assertThat(issued.first("alice/k0", "tok-0")).isEmpty();
    assertThat(issued.first("alice/k1", "tok-1")).isPresent();
    assertThat(issued.first("alice/k" + IssuedTokens.CAPACITY, "tok-" + IssuedTokens.CAPACITY))
        .isPresent();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
