package dev.floe.projections.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EventTokenTest {
  private static final byte[] SECRET = "the-instances-secret".getBytes(StandardCharsets.UTF_8);

  @Test
  void aTokenReadsBackAsIssued() {
    EventToken token = new EventToken("default", "abc", List.of(0L, 17L, 123_456_789L));

    assertThat(EventToken.decode(token.encode(SECRET), SECRET)).isEqualTo(token);
  }

  @Test
  void aTokenRevealsNeitherPositionsNorHowFarTheLogGrew() {
    String small = new EventToken("default", "abc", List.of(1L, 2L)).encode(SECRET);
    String large =
        new EventToken("default", "abc", List.of(10_000_000_000L, 20_000L)).encode(SECRET);

    assertThat(small).doesNotContain("default").hasSameSizeAs(large);
    String payload =
        new String(Base64.getUrlDecoder().decode(small.substring(3)), StandardCharsets.ISO_8859_1);
    assertThat(payload).doesNotContain("default").doesNotContain("\"p\"");
    assertThat(new EventToken("default", "abc", List.of(1L, 2L)).encode(SECRET))
        .as("sealed afresh each time")
        .isNotEqualTo(small);
  }

  @Test
  void anAlteredOrForeignTokenIsRefused() {
    String token = new EventToken("default", "abc", List.of(5L)).encode(SECRET);
    // A character inside the token: the last one may carry padding bits a decoder ignores.
    int at = token.length() / 2;
    String altered =
        token.substring(0, at) + (token.charAt(at) == 'A' ? 'B' : 'A') + token.substring(at + 1);

    assertThatThrownBy(() -> EventToken.decode(altered, SECRET))
        .isInstanceOf(EventToken.InvalidTokenException.class);
    assertThatThrownBy(() -> EventToken.decode(token, "another".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(EventToken.InvalidTokenException.class)
        .hasMessageContaining("not issued by this catalog");
    for (String garbage : List.of("", "v1.", "v1.!!", "v2.AAAA", "x".repeat(100))) {
      assertThatThrownBy(() -> EventToken.decode(garbage, SECRET))
          .as(garbage)
          .isInstanceOf(EventToken.InvalidTokenException.class);
    }
  }

  @Test
  void aFiltersDigestIgnoresOrderAndTellsFiltersApart() {
    EventFilter one =
        new EventFilter(
            Set.of("update-table", "drop-table"),
            Set.of(List.of("a", "b"), List.of("c")),
            Set.of(),
            Set.of("table"),
            Set.of());
    EventFilter same =
        new EventFilter(
            Set.of("drop-table", "update-table"),
            Set.of(List.of("c"), List.of("a", "b")),
            Set.of(),
            Set.of("table"),
            Set.of());
    EventFilter other =
        new EventFilter(
            Set.of("drop-table", "update-table"),
            Set.of(List.of("c"), List.of("a", "bb")),
            Set.of(),
            Set.of("table"),
            Set.of());

    assertThat(one.digest()).isEqualTo(same.digest()).isNotEqualTo(other.digest());
    assertThat(EventFilter.NONE.digest()).isNotEqualTo(one.digest());
  }

  @Test
  void aNameMatchesLevelByLevel() {
    EventFilter ab =
        new EventFilter(Set.of(), Set.of(List.of("a", "b")), Set.of(), Set.of(), Set.of());

    assertThat(ab.matches(table("a", "b", "t"))).isTrue();
    assertThat(ab.matches(table("a", "bc", "t"))).as("not a string prefix").isFalse();
    assertThat(ab.matches(table("a", "t"))).isFalse();
  }

  private static CatalogObjectEvent table(String... name) {
    return new CatalogObjectEvent(
        "update-table", "table", List.of(List.of(name)), null, "ana", "default", null);
  }
}
