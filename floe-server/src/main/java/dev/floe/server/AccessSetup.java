package dev.floe.server;

import dev.floe.api.auth.Tokens;
import dev.floe.api.http.ApiException;
import dev.floe.api.http.HttpResult;
import dev.floe.api.http.InternalAuth;
import dev.floe.api.http.RequestContext;
import dev.floe.client.Uuid7;
import dev.floe.events.CommandReply;
import dev.floe.events.RejectionCode;
import dev.floe.events.access.AccessChange;
import dev.floe.events.access.AccessEntries;
import dev.floe.events.command.ChangeAccessCommand;
import dev.floe.events.command.CommandHeader;
import dev.floe.infra.config.FloeConfig;
import dev.floe.projections.access.AccessSnapshot;
import dev.floe.projections.access.AccessView;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access-control parts of an instance: the first-start admin principal and its token file, and
 * making every instance apply an access change before the management API answers.
 */
final class AccessSetup {
  private static final Logger LOG = LoggerFactory.getLogger(AccessSetup.class);
  static final String ADMIN = "admin";
  static final String SYNC_PATH = "/internal/v1/access/sync";
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(10);

  private final Vertx vertx;
  private final Supplier<List<HostInfo>> peers;
  private final InternalAuth internal;
  private final CoalescedCatchUp catchUp;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  AccessSetup(AccessView view, Vertx vertx, Supplier<List<HostInfo>> peers, InternalAuth internal) {
    this.vertx = vertx;
    this.peers = peers;
    this.internal = internal;
    this.catchUp =
        new CoalescedCatchUp(
            () -> view.awaitCaughtUp(SYNC_TIMEOUT),
            task ->
                vertx.executeBlocking(
                    () -> {
                      task.run();
                      return null;
                    },
                    false));
  }

  /** This instance, then every other one, has applied every access change committed so far. */
  Future<Void> syncEverywhere() {
    return caughtUpHere().compose(v -> vertx.executeBlocking(this::syncPeers, false));
  }

  private Void syncPeers() {
    String secret = internal.secret().orElseThrow(() -> unavailable("this instance"));
    for (HostInfo peer : peers.get()) {
      HttpRequest request =
          HttpRequest.newBuilder(
                  URI.create("http://" + peer.host() + ":" + peer.port() + SYNC_PATH))
              .timeout(SYNC_TIMEOUT.plusSeconds(5))
              .header(InternalAuth.HEADER, secret)
              .POST(HttpRequest.BodyPublishers.noBody())
              .build();
      int status;
      try {
        status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
      } catch (IOException e) {
        throw unavailable(peer.host() + ":" + peer.port());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw unavailable(peer.host() + ":" + peer.port());
      }
      if (status != 204) {
        throw unavailable(peer.host() + ":" + peer.port());
      }
    }
    return null;
  }

  /**
   * The internal route another instance calls: 204 once this one has caught up. Only instances
   * reach it (the router checks their secret first), and concurrent calls share one catch-up.
   */
  Future<HttpResult> handleSync(RequestContext request) {
    return caughtUpHere().map(v -> HttpResult.noContent());
  }

  private Future<Void> caughtUpHere() {
    return Future.fromCompletionStage(catchUp.await(), vertx.getOrCreateContext())
        .compose(
            caughtUp ->
                caughtUp
                    ? Future.succeededFuture()
                    : Future.failedFuture(unavailable("this instance")));
  }

  private static ApiException unavailable(String where) {
    return ApiException.serviceUnavailable(
        "The access change is applied but "
            + where
            + " has not caught up yet; it will within moments");
  }

  /**
   * On first start: the {@code admin} principal (admin on every warehouse) and a token for it in
   * {@code <data-dir>/admin.token}, readable by the owner only. Later starts keep both; a token
   * file whose token is not registered (e.g. a fresh Kafka) is registered again.
   */
  static void bootstrapAdmin(
      FloeConfig config,
      AccessView view,
      Function<ChangeAccessCommand, CommandReply> submit,
      String instanceId) {
    Path file = config.dataDir().resolve("admin.token");
    String token = readOrCreateToken(file);
    if (view.snapshot().principal(ADMIN).isEmpty()) {
      expectAccepted(
          submit.apply(
              new ChangeAccessCommand(
                  systemHeader(instanceId), new AccessChange.CreatePrincipal(ADMIN, "user", null))),
          RejectionCode.PRINCIPAL_ALREADY_EXISTS);
    }
    if (!view.snapshot().isSuperuser(ADMIN)) {
      expectAccepted(
          submit.apply(
              new ChangeAccessCommand(
                  systemHeader(instanceId),
                  new AccessChange.SetRole(
                      ADMIN, AccessEntries.ALL_WAREHOUSES, AccessEntries.Role.ADMIN))),
          null);
    }
    if (view.snapshot().tokenByHash(Tokens.hash(token)).isEmpty()) {
      expectAccepted(
          submit.apply(
              new ChangeAccessCommand(
                  systemHeader(instanceId),
                  new AccessChange.IssueToken(Tokens.newTokenId(), ADMIN, Tokens.hash(token), 0))),
          null);
    }
    awaitVisible(
        view,
        snapshot ->
            snapshot.isSuperuser(ADMIN) && snapshot.tokenByHash(Tokens.hash(token)).isPresent(),
        "The admin principal did not reach the access view");
  }

  /**
   * Waits up to 30 s until the access view shows what {@code shows} looks for. Being caught up once
   * is not enough: the reply that accepted a change can be read before the access topic's own
   * commit marker is (Kafka writes a transaction's markers partition by partition), so the view
   * can be caught up to an end that does not yet hold the change.
   */
  private static void awaitVisible(
      AccessView view, Predicate<AccessSnapshot> shows, String otherwise) {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!shows.test(view.snapshot())) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new IllegalStateException(otherwise);
      }
      view.awaitCaughtUp(Duration.ofNanos(Math.min(left, Duration.ofMillis(500).toNanos())));
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(otherwise, e);
      }
    }
  }

  /**
   * The secret instances show each other on internal routes: created by the first instance that
   * starts (a later one, or one starting at the same time, keeps the first), then read by every
   * instance from the access state.
   */
  static void ensureInstanceSecret(
      AccessView view, Function<ChangeAccessCommand, CommandReply> submit, String instanceId) {
    if (view.snapshot().instanceSecret().isEmpty()) {
      expectAccepted(
          submit.apply(
              new ChangeAccessCommand(
                  systemHeader(instanceId),
                  new AccessChange.CreateInstanceSecret(Tokens.newSecret()))),
          null);
      awaitVisible(
          view,
          snapshot -> snapshot.instanceSecret().isPresent(),
          "The instances' secret did not reach the access view");
    }
  }

  private static CommandHeader systemHeader(String instanceId) {
    return new CommandHeader(
        Uuid7.next().toString(), System.currentTimeMillis(), "floe-system", instanceId, null);
  }

  private static void expectAccepted(CommandReply reply, RejectionCode tolerated) {
    if (!reply.accepted() && reply.rejection().code() != tolerated) {
      throw new IllegalStateException(
          "Cannot set up access control: " + reply.rejection().message());
    }
  }

  private static String readOrCreateToken(Path file) {
    try {
      if (Files.exists(file)) {
        return Files.readString(file).trim();
      }
      Files.createDirectories(file.getParent());
      Path temporary = file.resolveSibling("admin.token.tmp");
      Files.deleteIfExists(temporary);
      try {
        Files.createFile(
            temporary,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (UnsupportedOperationException e) {
        Files.createFile(temporary);
      }
      String token = Tokens.newToken();
      Files.writeString(temporary, token + "\n");
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
      LOG.info("Created the admin token in {}", file);
      return token;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read or write " + file, e);
    }
  }
}
