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
        "ad\ud800min",
        // Look-alikes of admin: full-width, one full-width letter, a zero-width space, a Cyrillic
        // a.
        "\uff41\uff44\uff4d\uff49\uff4e",
        "a\uff24min",
        "admin\u200b",
        "\u0430dmin",
        "admin\u2063",
        "ad/min",
        "e\u0301tl"
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
          "admin",
          "etl",
          "spark-prod",
          "ana.lyst@example.com",
          "Jörg Müller",
          "floe",
          "админ",
          "svc+ingest_2"
        }) {
      assertThat(PrincipalNames.problem(name)).as(name).isNull();
    }
  }
}
