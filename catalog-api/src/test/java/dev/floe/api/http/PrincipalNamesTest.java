package dev.floe.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** New principals' names that could be mistaken for another caller are refused. */
class PrincipalNamesTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "anonymous",
        "Anonymous",
        "unauthenticated",
        "floe-purger",
        "floe-system",
        "FLOE-x",
        "*",
        " admin",
        "admin ",
        "\u00a0admin",
        "admin\u3000",
        "ad\nmin",
        "ad\rmin",
        "ad\u0000min",
        "ad\u007fmin",
        "ad\u0085min",
        "ad\ufffdmin",
        "ad\ud800min"
      })
  void reservedOrAmbiguousNamesAreRefused(String name) {
    assertThat(PrincipalNames.problem(name)).as("[%s]", name).isNotNull();
  }

  @Test
  void namesOver255BytesOfUtf8AreRefused() {
    assertThat(PrincipalNames.problem("a".repeat(255))).isNull();
    assertThat(PrincipalNames.problem("a".repeat(256))).contains("255 bytes");
    assertThat(PrincipalNames.problem("é".repeat(127) + "a")).isNull();
    assertThat(PrincipalNames.problem("é".repeat(128))).contains("255 bytes");
    assertThat(PrincipalNames.problem("\ud83d\ude00".repeat(64))).contains("255 bytes");
  }

  @Test
  void ordinaryNamesAreAccepted() {
    for (String name :
        new String[] {
          "admin", "etl", "spark-prod", "ana.lyst@example.com", "Jörg Müller", "floe"
        }) {
      assertThat(PrincipalNames.problem(name)).as(name).isNull();
    }
  }
}
