package dev.floe.server.it.support;

import dev.floe.infra.testing.FloeProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One Floe server per configuration for the test classes of one test run that ask for it, started
 * before the first such class and killed when the run ends. Under failsafe's forks each class is a
 * run of its own, so each class gets its server and none idles on after its class (an idle server
 * costs about 5 % of a core, more than a start saved). For tests that need no restart and look only
 * at the entities they create (names unique to the class):
 *
 * <pre>{@code
 * @RegisterExtension static final SharedFloe floe = SharedFloe.withAuthOff();
 * }</pre>
 */
public final class SharedFloe implements BeforeAllCallback {
  private static final ExtensionContext.Namespace SERVERS =
      ExtensionContext.Namespace.create(SharedFloe.class);

  private final Map<String, String> properties;
  private FloeProcess process;

  private SharedFloe(Map<String, String> properties) {
    this.properties = new TreeMap<>(properties);
  }

  /** The embedded default with access control off. */
  public static SharedFloe withAuthOff() {
    return new SharedFloe(Map.of());
  }

  /** The embedded default with bearer tokens (the admin token is {@link #adminToken()}). */
  public static SharedFloe withTokens() {
    return new SharedFloe(Map.of("floe.auth", "token"));
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    process =
        context
            .getRoot()
            .getStore(SERVERS)
            .getOrComputeIfAbsent(properties.toString(), key -> start(), Running.class)
            .process();
  }

  private Running start() {
    try {
      Path target = Files.createDirectories(Path.of("target", "shared-servers"));
      return new Running(
          new FloeProcess(Files.createTempDirectory(target, "floe-"), properties).start());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The running server (after the class's {@code @BeforeAll} callbacks of extensions). */
  public FloeProcess process() {
    if (process == null) {
      throw new IllegalStateException("SharedFloe must be registered as a static extension");
    }
    return process;
  }

  public String uri() {
    return process().uri();
  }

  public Path dataDir() {
    return process().dataDir();
  }

  public String adminToken() {
    return process().adminToken();
  }

  private record Running(FloeProcess process) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() throws InterruptedException {
      process.close();
    }
  }
}
