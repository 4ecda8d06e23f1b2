package dev.floe.infra.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A class-data archive of the classes a Floe server loads, shared by every server the tests start
 * from the packaged build (as {@code bin/floe} keeps one for {@code serve}): mapping the classes
 * instead of loading them takes about a third off a server's start-up CPU, and the suites start
 * dozens of servers.
 *
 * <p>The first test JVM that needs it writes it, once per build, under a lock the other test JVMs
 * wait on: it starts a server that dumps the classes it loaded at its exit, creates a namespace and
 * a table in it, and stops it. An archive older than the jar or a library is written again. When
 * writing fails, servers start without one (slower, not different).
 */
final class ClassArchive {
  private static final long TRAINING_SECONDS = 120;

  private ClassArchive() {}

  /** The JVM options that map the archive, written first if need be; none if it cannot be had. */
  static synchronized List<String> options(Path target) {
    Path archive = target.resolve("cds").resolve("server.jsa");
    try {
      if (!fresh(archive, target)) {
        Files.createDirectories(archive.getParent());
        try (FileChannel channel =
                FileChannel.open(
                    archive.resolveSibling("server.lock"),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock lock = channel.lock()) {
          if (!fresh(archive, target)) {
            write(archive);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("No class-data archive for the test servers (" + e + ")");
    }
    return fresh(archive, target)
        ? List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off")
        : List.of();
  }

  private static boolean fresh(Path archive, Path target) {
    if (!Files.isRegularFile(archive)) {
      return false;
    }
    try (Stream<Path> libs = Files.list(target.resolve("lib"))) {
      FileTime written = Files.getLastModifiedTime(archive);
      List<Path> inputs = new ArrayList<>(libs.toList());
      inputs.add(target.resolve("floe-server.jar"));
      for (Path input : inputs) {
        if (Files.getLastModifiedTime(input).compareTo(written) > 0) {
          return false;
        }
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void write(Path archive) throws IOException {
    Path dir = Files.createTempDirectory(archive.getParent(), "training-");
    Path partial = archive.resolveSibling("server.jsa." + ProcessHandle.current().pid());
    int port = FreePorts.next();
    Process process =
        FloeProcess.launchPlain(
            List.of("-XX:ArchiveClassesAtExit=" + partial, "-Xlog:cds=off"),
            List.of(
                "serve", "--port", String.valueOf(port), "--data-dir", dir.resolve("data") + ""),
            dir.resolve("server.log"));
    try {
      String uri = "http://localhost:" + port;
      FloeProcess.awaitReady(process, uri + "/health/ready", dir.resolve("server.log"));
      String token = Files.readString(dir.resolve("data").resolve("admin.token")).trim();
      post(uri + "/v1/default/namespaces", token, "{\"namespace\":[\"training\"]}");
      post(
          uri + "/v1/default/namespaces/training/tables",
          token,
          "{\"name\":\"t\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
              + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}");
      process.destroy();
      if (!process.waitFor(TRAINING_SECONDS, TimeUnit.SECONDS) || !Files.exists(partial)) {
        throw new IllegalStateException("the training server wrote no archive; see " + dir);
      }
      Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE);
      deleteTree(dir);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      process.destroyForcibly();
      Files.deleteIfExists(partial);
    }
  }

  private static void post(String uri, String token, String body) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) URI.create(uri).toURL().openConnection();
    try {
      connection.setRequestMethod("POST");
      connection.setDoOutput(true);
      connection.setRequestProperty("Authorization", "Bearer " + token);
      connection.setRequestProperty("Content-Type", "application/json");
      connection.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
      int status = connection.getResponseCode();
      if (status != 200) {
        throw new IOException("POST " + uri + " answered " + status);
      }
    } finally {
      connection.disconnect();
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
