package dev.floe.server.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bearer token a command-line tool sends: {@code --token}, else {@code $FLOE_TOKEN}, else
 * {@code <data-dir>/admin.token}; null when there is none (a server with {@code --auth none}).
 */
final class ClientToken {
  private ClientToken() {}

  static String resolve(String flag, Path dataDir) {
    if (flag != null && !flag.isBlank()) {
      return flag.trim();
    }
    String env = System.getenv("FLOE_TOKEN");
    if (env != null && !env.isBlank()) {
      return env.trim();
    }
    Path file = dataDir.resolve("admin.token");
    try {
      return Files.exists(file) ? Files.readString(file).trim() : null;
    } catch (IOException e) {
      return null;
    }
  }
}
