package dev.floe.infra.storage.location;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.infra.storage.authority.LocationAuthority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LocationTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "file:///wh/sec/t",
        "file:/wh/sec/t",
        "/wh/sec/t",
        "file:///wh//sec/t",
        "file:///wh/sec/t/",
        "file:///wh/sec/t//",
        "FILE:///wh/sec/t",
        "file:///wh/%73ec/t",
        "file:///wh/%73%65%63/t"
      })
  void everySpellingOfOneFilePlaceIsOneCanonicalLocation(String spelling) {
    Location location = Location.parse(spelling);
    assertThat(location.canonical()).isEqualTo("file:///wh/sec/t");
    assertThat(location.spelling()).isEqualTo(spelling);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"s3://Lake/wh/t", "s3a://lake/wh/t", "S3N://lake/wh/t/", "s3://lake/wh/%74"})
  void s3SpellingsOfOnePlaceAreOne(String spelling) {
    assertThat(Location.parse(spelling).canonical()).isEqualTo("s3://lake/wh/t");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "relative/path",
        "file:relative",
        "file://localhost/x",
        "file://host/x",
        "hdfs://nn/wh/t",
        "http://example.com/wh",
        "s3:/lake/wh",
        "s3:///wh",
        "s3://lake/wh//sec",
        "file:///wh/../etc",
        "file:///wh/./t",
        "file:///wh/%2e%2e/etc",
        "file:///wh/%2E%2e/etc",
        "file:///wh/.%2e/etc",
        "file:///wh/a%2fb",
        "file:///wh/a%5cb",
        "file:///wh/%c0%ae%c0%ae/etc",
        "file:///wh/%zz",
        "file:///wh/100%",
        "file:///wh/a\u0000b",
        "file:///wh/a\r\nb",
        "file:///wh/a\u0085b",
        "file:///wh/a\uFFFDb",
        "file:///wh/a\\b",
        "s3://lake/wh?x=1",
        "s3://lake/wh#frag",
        "gs://lake/../x"
      })
  void refusesWhatCouldNameAnotherPlaceOrClimbOut(String spelling) {
    assertThatThrownBy(() -> Location.parse(spelling))
        .isInstanceOf(InvalidLocationException.class)
        .hasMessageStartingWith("Invalid location")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\r", "\n", "\u0000"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"file:///wh/sec", "file:///wh/sec/t", "file:///wh/sec/t/data"})
  void containmentFollowsSegmentsNotCharacters(String inside) {
    Location sec = Location.parse("file:///wh/sec");
    assertThat(sec.contains(Location.parse(inside))).isTrue();
    assertThat(sec.contains(Location.parse("file:///wh/second"))).isFalse();
    assertThat(sec.contains(Location.parse("file:///wh/sec_other/t"))).isFalse();
    assertThat(sec.contains(Location.parse("s3://wh/sec/t"))).isFalse();
  }

  @Test
  void aDefaultLocationsDirectoryNameFitsAFileSystemWhateverTheName() {
    String location =
        LocationAuthority.defaultLocation(
            Location.parse("file:///wh/db"),
            "t".repeat(255),
            "01234567-89ab-cdef-0123-456789abcdef");
    String directory = location.substring(location.lastIndexOf('/') + 1);
    assertThat(directory.length()).isLessThanOrEqualTo(255);
    assertThat(directory).endsWith("-0123456789abcdef0123456789abcdef");
  }

  @Test
  void ancestorsRunFromTheRootDown() {
    assertThat(Location.parse("s3://lake/a/b").ancestors())
        .containsExactly("s3://lake", "s3://lake/a");
    assertThat(Location.parse("file:///a/b").ancestors()).containsExactly("file:///", "file:///a");
  }
}
