package dev.floe.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.FloeJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A token's {@code expires-in-seconds} is a whole number from 1 to ten years: anything else is a
 * 400, never a token that overflows into one that never expires or is born expired.
 */
class TokenLifetimeTest {
  private static final long NOW = 1_800_000_000_000L;

  @Test
  void anAbsentLifetimeNeverExpires() throws Exception {
    assertThat(TokenHandlers.expiresAtMillis(null, NOW)).isZero();
    assertThat(TokenHandlers.expiresAtMillis(json("null"), NOW)).isZero();
  }

  @Test
  void lifetimesUpToTenYearsExpireThatLongFromNow() throws Exception {
    assertThat(TokenHandlers.expiresAtMillis(json("1"), NOW)).isEqualTo(NOW + 1000);
    assertThat(TokenHandlers.expiresAtMillis(json("315360000"), NOW))
        .isEqualTo(NOW + 315_360_000_000L);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0",
        "-1",
        "315360001",
        "9223372036854775807",
        "9223372036854775808",
        "92233720368547758",
        "1.5",
        "1e3",
        "\"3600\"",
        "true",
        "[]"
      })
  void anythingElseIsABadRequest(String seconds) throws Exception {
    JsonNode value = json(seconds);
    assertThatThrownBy(() -> TokenHandlers.expiresAtMillis(value, NOW))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400))
        .hasMessageContaining("expires-in-seconds");
  }

  private static JsonNode json(String text) throws Exception {
    return FloeJson.mapper().readTree(text);
  }
}
