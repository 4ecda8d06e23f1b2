package dev.floe.infra.storage.location;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A storage location in canonical form, so that two spellings of one place compare equal and a
 * location that could name more than one place, or climb out of where it appears to be, is refused.
 * Every comparison of locations in Floe goes through this class ({@link
 * dev.floe.infra.storage.authority.LocationAuthority}); no other code compares location strings.
 *
 * <p>Canonical form: {@code file:///a/b}, {@code s3://bucket/a/b}, {@code gs://bucket/a/b}. The
 * {@code file:} spellings {@code file:/a}, {@code file:///a} and a bare {@code /a} are one place;
 * {@code s3a://} and {@code s3n://} are {@code s3://}; schemes and buckets compare without case;
 * trailing {@code /} is dropped; on a file system an empty segment ({@code a//b}) is collapsed as
 * POSIX does. Percent-escapes are decoded for comparison (a tool that decodes them reaches the
 * decoded place), so a segment must not decode to {@code .}, {@code ..} or hold a {@code /}.
 *
 * <p>Refused ({@link InvalidLocationException}): control characters (NUL, CR, LF, …), U+FFFD,
 * backslashes, {@code ?} and {@code #}, {@code .} and {@code ..} segments in any spelling,
 * malformed or non-UTF-8 escapes (overlong forms included), a {@code file:} location with a host,
 * an empty segment on object storage (where {@code a//b} is another key than {@code a/b}), a
 * missing bucket, and any scheme but {@code file}, {@code s3}, {@code s3a}, {@code s3n}, {@code
 * gs}.
 *
 * @param scheme {@code file}, {@code s3} or {@code gs}
 * @param bucket the bucket, lower case; empty for {@code file}
 * @param segments the decoded path segments, none empty
 * @param spelling the location as it was written, kept for the client and for storage calls
 */
public record Location(String scheme, String bucket, List<String> segments, String spelling) {
  /** The longest location accepted, in characters. */
  public static final int MAX_LENGTH = 4096;

  /** The longest path segment, in bytes of UTF-8: a file name's limit on common file systems. */
  public static final int MAX_SEGMENT_BYTES = 255;

  public Location {
    segments = List.copyOf(segments);
  }

  /** Parses and canonicalises a location; throws {@link InvalidLocationException} if refused. */
  public static Location parse(String location) {
    if (location == null || location.isBlank()) {
      throw new InvalidLocationException("Invalid location: empty");
    }
    if (location.length() > MAX_LENGTH) {
      throw new InvalidLocationException(
          "Invalid location: longer than " + MAX_LENGTH + " characters");
    }
    for (int i = 0; i < location.length(); i++) {
      char c = location.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\uFFFD') {
        throw invalid(location, "contains a control or replacement character");
      }
      if (c == '\\' || c == '?' || c == '#') {
        throw invalid(location, "contains '" + c + "'");
      }
    }
    int colon = location.indexOf(':');
    String scheme = colon > 0 ? location.substring(0, colon).toLowerCase(Locale.ROOT) : "";
    if (location.startsWith("/")) {
      return local(location, location);
    }
    return switch (scheme) {
      case "file" -> fileLocation(location, location.substring(colon + 1));
      case "s3", "s3a", "s3n" -> objectLocation(location, "s3", location.substring(colon + 1));
      case "gs" -> objectLocation(location, "gs", location.substring(colon + 1));
      default ->
          throw invalid(
              location,
              scheme.isEmpty()
                  ? "not an absolute location with a scheme"
                  : "scheme " + scheme + ": is not supported (file:, s3://, gs://)");
    };
  }

  private static Location fileLocation(String spelling, String rest) {
    if (rest.startsWith("//")) {
      String afterSlashes = rest.substring(2);
      if (!afterSlashes.startsWith("/")) {
        throw invalid(spelling, "a file: location must name no host (file:///path)");
      }
      return local(spelling, afterSlashes);
    }
    if (!rest.startsWith("/")) {
      throw invalid(spelling, "a file: location must be an absolute path");
    }
    return local(spelling, rest);
  }

  private static Location local(String spelling, String path) {
    List<String> segments = new ArrayList<>();
    for (String raw : path.split("/")) {
      if (!raw.isEmpty()) {
        segments.add(segment(spelling, raw));
      }
    }
    return new Location("file", "", segments, spelling);
  }

  private static Location objectLocation(String spelling, String scheme, String rest) {
    if (!rest.startsWith("//")) {
      throw invalid(spelling, "expected " + scheme + "://bucket/path");
    }
    String afterSlashes = rest.substring(2);
    int slash = afterSlashes.indexOf('/');
    String bucket = slash < 0 ? afterSlashes : afterSlashes.substring(0, slash);
    if (bucket.isEmpty() || !bucket.matches("[A-Za-z0-9._-]+")) {
      throw invalid(spelling, "names no valid bucket");
    }
    List<String> segments = new ArrayList<>();
    if (slash >= 0) {
      String path = afterSlashes.substring(slash + 1);
      while (path.endsWith("/")) {
        path = path.substring(0, path.length() - 1);
      }
      if (!path.isEmpty()) {
        for (String raw : path.split("/", -1)) {
          if (raw.isEmpty()) {
            throw invalid(spelling, "has an empty path segment");
          }
          segments.add(segment(spelling, raw));
        }
      }
    }
    return new Location(scheme, bucket.toLowerCase(Locale.ROOT), segments, spelling);
  }

  /** Decodes one segment's escapes and refuses what could climb or split. */
  private static String segment(String spelling, String raw) {
    String decoded = raw.indexOf('%') < 0 ? raw : decode(spelling, raw);
    if (decoded.equals(".") || decoded.equals("..")) {
      throw invalid(spelling, "has a relative segment");
    }
    for (int i = 0; i < decoded.length(); i++) {
      char c = decoded.charAt(i);
      if (c == '/' || c == '\\' || c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\uFFFD') {
        throw invalid(spelling, "has an escaped separator or control character");
      }
    }
    // File systems take at most 255 bytes per name (ext4, xfs, APFS): a longer segment could never
    // be written, so it is refused here as the client's error, not met later as a storage failure.
    if (decoded.getBytes(StandardCharsets.UTF_8).length > MAX_SEGMENT_BYTES) {
      throw invalid(spelling, "has a segment longer than " + MAX_SEGMENT_BYTES + " bytes");
    }
    return decoded;
  }

  private static String decode(String spelling, String raw) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        if (i + 2 >= raw.length()
            || Character.digit(raw.charAt(i + 1), 16) < 0
            || Character.digit(raw.charAt(i + 2), 16) < 0) {
          throw invalid(spelling, "has a malformed percent-escape");
        }
        bytes.write(Integer.parseInt(raw.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < raw.length()) {
          utf8 = raw.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        bytes.writeBytes(utf8);
      }
    }
    try {
      // A strict decoder refuses overlong forms and surrogates, which lenient ones map to '.'.
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw invalid(spelling, "has a percent-escape that is not UTF-8");
    }
  }

  private static InvalidLocationException invalid(String location, String why) {
    return new InvalidLocationException("Invalid location " + printable(location) + ": " + why);
  }

  /** The location with control characters escaped, safe to put in a message or a log line. */
  public static String printable(String location) {
    StringBuilder out = new StringBuilder();
    int limit = Math.min(location.length(), 300);
    for (int i = 0; i < limit; i++) {
      char c = location.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return limit < location.length() ? out.append("…").toString() : out.toString();
  }

  /** The canonical string: equal for every spelling of one place, and only for those. */
  public String canonical() {
    StringBuilder out = new StringBuilder(scheme).append("://").append(bucket);
    if (scheme.equals("file") && segments.isEmpty()) {
      return out.append("/").toString();
    }
    for (String segment : segments) {
      out.append('/').append(segment);
    }
    return out.toString();
  }

  /** True when {@code other} is this place or lies under it (at a segment boundary). */
  public boolean contains(Location other) {
    return scheme.equals(other.scheme)
        && bucket.equals(other.bucket)
        && other.segments.size() >= segments.size()
        && other.segments.subList(0, segments.size()).equals(segments);
  }

  /** True when {@code other} lies strictly under this place. */
  public boolean strictlyContains(Location other) {
    return contains(other) && other.segments.size() > segments.size();
  }

  /** True when one of the two contains the other: they share files. */
  public boolean overlaps(Location other) {
    return contains(other) || other.contains(this);
  }

  /** The canonical strings of every proper ancestor, the storage's root first. */
  public List<String> ancestors() {
    List<String> ancestors = new ArrayList<>();
    for (int i = 0; i < segments.size(); i++) {
      ancestors.add(new Location(scheme, bucket, segments.subList(0, i), spelling).canonical());
    }
    return ancestors;
  }

  @Override
  public String toString() {
    return canonical();
  }
}
