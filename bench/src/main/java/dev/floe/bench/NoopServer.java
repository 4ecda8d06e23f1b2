package dev.floe.bench;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * An HTTP server that does nothing: every request is answered 200 with the same bytes, on Vert.x
 * with as many event loops as Floe's server. The benchmark measures a catalog's {@code load-table}
 * answer served from it, with the same client, to show what this machine's cores allow any server
 * before it does any work (bench/notes.md).
 *
 * <pre>NoopServer BODY_FILE ETAG</pre>
 *
 * Listens on a free port of localhost and prints {@code listening PORT} once it does.
 */
public final class NoopServer {
  /** An entity tag as long as Floe's, so the answer's headers weigh what a catalog's do. */
  static final String ETAG = "\"00112233445566778899aabbccddeeff\"";

  private NoopServer() {}

  /** A no-op server in a JVM of its own, started with this JVM's options; closing stops it. */
  static final class Running implements AutoCloseable {
    private final Process process;
    private final Path bodyFile;
    private final int port;

    private Running(Process process, Path bodyFile, int port) {
      this.process = process;
      this.bodyFile = bodyFile;
      this.port = port;
    }

    /** The same path and query on the no-op server. */
    URI sameRequest(URI original) {
      String query = original.getRawQuery() == null ? "" : "?" + original.getRawQuery();
      return URI.create("http://127.0.0.1:" + port + original.getRawPath() + query);
    }

    @Override
    public void close() throws IOException {
      process.getOutputStream().close();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      } finally {
        Files.deleteIfExists(bodyFile);
      }
    }
  }

  /** Starts a no-op server answering {@code body} to every request. */
  /**
   * The catalog's answer to one {@code load-table} request, served by a {@link NoopServer} in a JVM
   * of its own to the same number of clients, warm-up included, while the catalog sits idle.
   */
  static Stats measure(RestTarget target, String table, Workloads.Settings settings) {
    RestTarget.Response answer = target.call("GET", table, null);
    if (answer.status() != 200) {
      throw new IllegalStateException(
          target.name + ": loading " + table + " answered " + answer.status());
    }
    try (NoopServer.Running server =
        NoopServer.start(answer.body().getBytes(StandardCharsets.UTF_8))) {
      URI uri = server.sameRequest(target.uriOf(table));
      Http1 http = new Http1();
      IntSupplier load =
          () -> {
            try {
              return http.send("GET", uri, null, target.token).status();
            } catch (IOException e) {
              return -1;
            }
          };
      if (settings.warmupSeconds() > 0) {
        Load.closedLoop(settings.warmupSeconds(), settings.clients(), load);
      }
      return Load.closedLoop(settings.durationSeconds(), settings.clients(), load);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Running start(byte[] body) throws IOException {
    Path file = Files.createTempFile("floe-noop-body", ".json");
    Files.write(file, body);
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            NoopServer.class.getName(),
            file.toString(),
            ETAG));
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (line == null || !line.startsWith("listening ")) {
      process.destroyForcibly();
      Files.deleteIfExists(file);
      throw new IOException("The no-op server did not start: " + line);
    }
    return new Running(process, file, Integer.parseInt(line.substring("listening ".length())));
  }

  public static void main(String[] args) throws Exception {
    Buffer body = Buffer.buffer(Files.readAllBytes(Path.of(args[0])));
    String etag = args[1];
    Vertx vertx =
        Vertx.vertx(
            new VertxOptions()
                .setEventLoopPoolSize(Math.max(2, Runtime.getRuntime().availableProcessors())));
    HttpServer server =
        vertx
            .createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
            .requestHandler(
                request ->
                    request
                        .response()
                        .putHeader("Content-Type", "application/json")
                        .putHeader("ETag", etag)
                        .end(body))
            .listen()
            .toCompletionStage()
            .toCompletableFuture()
            .get();
    System.out.println("listening " + server.actualPort());
    System.out.flush();
    // Runs until the benchmark closes its standard input or kills it.
    while (System.in.read() >= 0) {
      // nothing to read
    }
    System.exit(0);
  }
}
