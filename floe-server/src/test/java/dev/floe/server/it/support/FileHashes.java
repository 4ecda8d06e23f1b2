package dev.floe.server.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Every file under a directory with the SHA-256 of its bytes: "nothing changed on disk". */
public final class FileHashes {
  private FileHashes() {}

  /** The files under {@code root}, but those under any of {@code except}, by relative path. */
  public static Map<String, String> of(Path root, Path... except) throws IOException {
    Map<String, String> hashes = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        if (Stream.of(except).noneMatch(file::startsWith)) {
          hashes.put(root.relativize(file).toString(), sha256(Files.readAllBytes(file)));
        }
      }
    }
    return hashes;
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
