package dev.floe.infra.storage.authority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.infra.storage.config.StorageConfig;
import dev.floe.infra.storage.location.InvalidLocationException;
import dev.floe.infra.storage.location.Location;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Properties of canonical locations and of the authority's rules, against a model on lists of path
 * segments: many spellings of one path, random roots and claims.
 */
class LocationPropertiesTest {
  private static final LocationAuthority NO_ROOTS =
      new LocationAuthority(StorageConfig.local(Map.of()));

  @Provide
  Arbitrary<List<String>> segments() {
    Arbitrary<String> segment =
        Arbitraries.strings()
            .withChars("abcAB01_-.~ é")
            .ofMinLength(1)
            .ofMaxLength(6)
            .filter(s -> !s.equals(".") && !s.equals(".."));
    return segment.list().ofMinSize(1).ofMaxSize(5);
  }

  @Provide
  Arbitrary<List<String>> shortSegments() {
    return Arbitraries.of("a", "b", "ab").list().ofMinSize(1).ofMaxSize(4);
  }

  @Property(tries = 500)
  void everySpellingOfAPathIsTheSameCanonicalLocation(
      @ForAll("segments") List<String> segments, @ForAll long seed) {
    String plain = "file:///" + String.join("/", segments);
    String spelled = respell(segments, new Random(seed));
    assertThat(Location.parse(spelled).canonical()).isEqualTo(Location.parse(plain).canonical());
  }

  @Property(tries = 300)
  void aDotSegmentInAnySpellingAnywhereIsRefused(
      @ForAll("segments") List<String> segments,
      @ForAll long seed,
      @ForAll("dots") String dot,
      @ForAll("schemes") String scheme) {
    Random random = new Random(seed);
    List<String> withDot = new ArrayList<>();
    for (String segment : segments) {
      withDot.add(random.nextBoolean() ? escape(segment) : segment);
    }
    withDot.add(random.nextInt(withDot.size() + 1), dot);
    String location = scheme + String.join("/", withDot);
    assertThatThrownBy(() -> Location.parse(location)).isInstanceOf(InvalidLocationException.class);
  }

  @Provide
  Arbitrary<String> dots() {
    return Arbitraries.of(".", "..", "%2e", "%2E", "%2e%2e", ".%2e", "%2E.", "%2e%2E");
  }

  @Provide
  Arbitrary<String> schemes() {
    return Arbitraries.of("file:///", "file:/", "s3://bucket/", "gs://bucket/");
  }

  @Property(tries = 300)
  void aControlCharacterAnywhereIsRefused(
      @ForAll("segments") List<String> segments,
      @ForAll("controls") char control,
      @ForAll long seed) {
    String location = "file:///" + String.join("/", segments);
    int at = new Random(seed).nextInt(location.length() + 1);
    String hostile = location.substring(0, at) + control + location.substring(at);
    assertThatThrownBy(() -> Location.parse(hostile)).isInstanceOf(InvalidLocationException.class);
  }

  @Provide
  Arbitrary<Character> controls() {
    return Arbitraries.oneOf(
        Arbitraries.chars().range('\u0000', '\u001f'),
        Arbitraries.chars().range('\u007f', '\u009f'),
        Arbitraries.just('\uFFFD'));
  }

  @Property(tries = 1000)
  void containmentIsASegmentPrefix(
      @ForAll("shortSegments") List<String> outer, @ForAll("shortSegments") List<String> inner) {
    Location a = Location.parse("s3://lake/" + String.join("/", outer));
    Location b = Location.parse("s3://lake/" + String.join("/", inner));
    boolean prefix = inner.size() >= outer.size() && inner.subList(0, outer.size()).equals(outer);
    assertThat(a.contains(b)).isEqualTo(prefix);
    assertThat(a.overlaps(b)).isEqualTo(prefix || isPrefix(inner, outer));
  }

  @Property(tries = 1000)
  void anOverlapIsFoundWheneverAClaimSharesFilesWithTheLocation(
      @ForAll("claimSets") List<List<String>> claims,
      @ForAll("shortSegments") List<String> requested,
      @ForAll long seed) {
    MapClaims index = new MapClaims();
    for (int i = 0; i < claims.size(); i++) {
      // Claims are spelled in many ways too: the index holds their canonical form.
      index.hold(respell(claims.get(i), new Random(seed + i)), "entity-" + i);
    }
    boolean expected =
        claims.stream().anyMatch(c -> isPrefix(c, requested) || isPrefix(requested, c));
    Location location = Location.parse(respell(requested, new Random(seed - 1)));
    assertThat(NO_ROOTS.overlapProblem(location, index, "me").isPresent()).isEqualTo(expected);
    // The entity's own claims never count against it.
    assertThat(NO_ROOTS.overlapProblem(location, ownedBy(claims, "me"), "me")).isEmpty();
  }

  @Property(tries = 500)
  void aPlacementIsAcceptedOnlyStrictlyInsideTheRootAndFreeOfOthers(
      @ForAll("shortSegments") List<String> root,
      @ForAll("shortSegments") List<String> requested,
      @ForAll("claimSets") List<List<String>> claims,
      @ForAll long seed) {
    MapClaims index = new MapClaims();
    for (int i = 0; i < claims.size(); i++) {
      index.hold("file:///" + String.join("/", claims.get(i)), "entity-" + i);
    }
    Location rootLocation = Location.parse("file:///" + String.join("/", root));
    String spelled = respell(requested, new Random(seed));
    boolean inside = requested.size() > root.size() && isPrefix(root, requested);
    boolean free = claims.stream().noneMatch(c -> isPrefix(c, requested) || isPrefix(requested, c));
    assertThat(
            NO_ROOTS
                .placementProblem(rootLocation, spelled, Map.of(), List.of(), index, "me")
                .isEmpty())
        .isEqualTo(inside && free);
  }

  @Provide
  Arbitrary<List<List<String>>> claimSets() {
    return shortSegments().list().ofMinSize(0).ofMaxSize(6);
  }

  private static MapClaims ownedBy(List<List<String>> claims, String holder) {
    MapClaims index = new MapClaims();
    claims.forEach(c -> index.hold("file:///" + String.join("/", c), holder));
    return index;
  }

  private static boolean isPrefix(List<String> prefix, List<String> list) {
    return list.size() >= prefix.size() && list.subList(0, prefix.size()).equals(prefix);
  }

  /** The same file path, written in one of the ways a client may write it. */
  private static String respell(List<String> segments, Random random) {
    StringBuilder out =
        new StringBuilder(
            switch (random.nextInt(4)) {
              case 0 -> "file:///";
              case 1 -> "file:/";
              case 2 -> "/";
              default -> "FILE:///";
            });
    for (int i = 0; i < segments.size(); i++) {
      if (i > 0) {
        out.append(random.nextBoolean() ? "/" : "//");
      }
      String segment = segments.get(i);
      out.append(random.nextInt(3) == 0 ? escape(segment) : segment);
    }
    return out.append(random.nextBoolean() ? "/" : "").toString();
  }

  private static String escape(String segment) {
    StringBuilder out = new StringBuilder();
    for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
      out.append(String.format("%%%02X", b & 0xff));
    }
    return out.toString();
  }
}
