package dev.floe.server;

import dev.floe.api.http.HttpResult;
import dev.floe.api.http.InternalAuth;
import dev.floe.api.http.RequestContext;
import dev.floe.infra.kafka.StaticMembers;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import java.net.ConnectException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a dead instance's partitions as soon as it dies instead of when its group session ends.
 *
 * <p>Every instance holds one long request open to every other: {@code GET /internal/v1/alive},
 * whose answer names the serving instance's processor (its static group instance id) and then
 * never ends. When a process dies its sockets close with it, so the request ends at once; when the
 * watcher's next connection to that port is refused too, the process is gone (not frozen, not out
 * of reach: those keep the connection, or time it out), and the watcher removes its stream threads
 * from the processor's group ({@link StaticMembers}), so the rebalance that hands its partitions to
 * their warm standbys starts now rather than a session later. An instance starting again listens
 * before it joins the group, so a refused connection never belongs to a member that has already
 * taken its place. A frozen instance is left to its session (docs/architecture.md, "What bounds a
 * failover") for its partitions; but the open answer also carries a line every {@link #TICK_MS},
 * so a peer that has said nothing for {@link #SILENT_MS} is known to have stopped answering
 * ({@link #silent}): this instance sends it nothing meanwhile and gives up what it had sent it
 * ({@code Forwarder}), rather than keep its callers waiting until the peer thaws.
 */
final class PeerWatch implements AutoCloseable {
  static final String ALIVE_PATH = "/internal/v1/alive";
  private static final Logger LOG = LoggerFactory.getLogger(PeerWatch.class);

  private static final long RECONCILE_MS = 1_000;
  static final long TICK_MS = 250;
  static final long SILENT_MS = 1_000;
  private static final long RETRY_MS = 250;
  private static final int CONNECT_TIMEOUT_MS = 1_000;
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(5);

  private final Vertx vertx;
  private final Supplier<List<HostInfo>> peers;
  private final InternalAuth internal;
  private final String self;
  private final String bootstrapServers;
  private final String groupId;
  private final long keepAliveMs;
  private final HttpClient client;
  private final NetClient probe;
  private final Map<HostInfo, Boolean> watched = new HashMap<>();
  /** When each watched peer last said something (nanoTime), by "host:port". */
  private final Map<String, Long> heard = new ConcurrentHashMap<>();
  private final Set<String> silentPeers = ConcurrentHashMap.newKeySet();
  private volatile BiConsumer<String, Integer> onSilent = (host, port) -> {};
  private long lastCheck = System.nanoTime();
  private long timer = -1;
  private long silenceTimer = -1;

  /**
   * @param self this instance's processor, as its stream threads' static group instance ids begin
   * @param groupId the processor's consumer group (its application id)
   * @param idleTimeout the HTTP server's idle timeout: the serving side writes to an open watch
   *     well within it
   */
  PeerWatch(
      Vertx vertx,
      Supplier<List<HostInfo>> peers,
      InternalAuth internal,
      String self,
      String bootstrapServers,
      String groupId,
      Duration idleTimeout) {
    this.vertx = vertx;
    this.peers = peers;
    this.internal = internal;
    this.self = self;
    this.bootstrapServers = bootstrapServers;
    this.groupId = groupId;
    this.keepAliveMs = Math.max(50, Math.min(TICK_MS, idleTimeout.toMillis() / 3));
    this.client =
        vertx.createHttpClient(
            new HttpClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS).setIdleTimeout(0));
    this.probe = vertx.createNetClient(new NetClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS));
  }

  /** The serving side: names this instance's processor, then holds the answer open. */
  Future<HttpResult> handleAlive(RequestContext request) {
    Promise<HttpResult> done = Promise.promise();
    HttpServerResponse response = request.response();
    response.setStatusCode(200).setChunked(true).putHeader("Content-Type", "text/plain");
    response.write(self + "\n");
    long keepAlive = vertx.setPeriodic(keepAliveMs, id -> response.write("\n"));
    Runnable end =
        () -> {
          vertx.cancelTimer(keepAlive);
          done.tryComplete(HttpResult.STREAMED);
        };
    response.closeHandler(v -> end.run());
    response.exceptionHandler(e -> end.run());
    return done.future();
  }

  /** Watches every other instance of the group, now and as they come and go. */
  PeerWatch start() {
    vertx.runOnContext(
        v -> {
          timer = vertx.setPeriodic(0, RECONCILE_MS, id -> reconcile());
          silenceTimer = vertx.setPeriodic(TICK_MS, id -> checkSilence());
        });
    return this;
  }

  /** Calls {@code listener} with a peer's host and port when it falls silent. */
  PeerWatch onSilent(BiConsumer<String, Integer> listener) {
    this.onSilent = listener;
    return this;
  }

  /**
   * Whether the instance at {@code host:port} is watched and has said nothing for {@link
   * #SILENT_MS}: it is frozen, or out of reach.
   */
  boolean silent(String host, int port) {
    return silentPeers.contains(host + ":" + port);
  }

  /**
   * Marks the peers that said nothing for {@link #SILENT_MS} silent. When this check itself ran
   * late (this instance was frozen or starved), nobody is: their lines are about to be read.
   */
  private void checkSilence() {
    long now = System.nanoTime();
    boolean late = now - lastCheck > TimeUnit.MILLISECONDS.toNanos(SILENT_MS / 2);
    lastCheck = now;
    for (Map.Entry<String, Long> peer : heard.entrySet()) {
      if (late) {
        peer.setValue(now);
        continue;
      }
      boolean quiet = now - peer.getValue() > TimeUnit.MILLISECONDS.toNanos(SILENT_MS);
      if (quiet && silentPeers.add(peer.getKey())) {
        LOG.warn(
            "Instance at {} said nothing for {} ms: sending it nothing until it answers again",
            peer.getKey(),
            SILENT_MS);
        int colon = peer.getKey().lastIndexOf(':');
        onSilent.accept(
            peer.getKey().substring(0, colon),
            Integer.parseInt(peer.getKey().substring(colon + 1)));
      }
    }
  }

  private void heardFrom(String peer) {
    heard.put(peer, System.nanoTime());
    if (silentPeers.remove(peer)) {
      LOG.info("Instance at {} answers again", peer);
    }
  }

  private void reconcile() {
    Optional<String> secret = internal.secret();
    if (secret.isEmpty()) {
      return;
    }
    List<HostInfo> now;
    try {
      now = peers.get();
    } catch (RuntimeException e) {
      // The processor is rebalancing or stopping: its metadata comes back on the next round.
      return;
    }
    for (HostInfo peer : now) {
      if (watched.putIfAbsent(peer, Boolean.TRUE) == null) {
        watch(peer, secret.get());
      }
    }
  }

  private void watch(HostInfo peer, String secret) {
    RequestOptions options =
        new RequestOptions()
            .setMethod(HttpMethod.GET)
            .setHost(peer.host())
            .setPort(peer.port())
            .setURI(ALIVE_PATH)
            .putHeader(InternalAuth.HEADER, secret);
    client
        .request(options)
        .compose(request -> request.send())
        .onSuccess(response -> follow(peer, response))
        .onFailure(
            e -> {
              LOG.debug("Cannot watch {}:{}: {}", peer.host(), peer.port(), e.toString());
              watched.remove(peer);
            });
  }

  /**
   * Reads the peer's open answer: its first line names its processor; when the answer ends or
   * breaks without this instance closing, the peer may be dead.
   */
  private void follow(HostInfo peer, HttpClientResponse response) {
    LOG.debug("Watching {}:{}: {}", peer.host(), peer.port(), response.statusCode());
    if (response.statusCode() != 200) {
      // Starting (503) or not yet sharing the secret: alive, and soon watchable. Until then its
      // death is left to the group session, so look again soon.
      response
          .end()
          .onComplete(
              v ->
                  vertx.setTimer(
                      RETRY_MS,
                      id -> {
                        watched.remove(peer);
                        reconcile();
                      }));
      return;
    }
    StringBuilder first = new StringBuilder();
    String[] name = new String[1];
    String key = peer.host() + ":" + peer.port();
    heardFrom(key);
    response.handler(
        buffer -> {
          heardFrom(key);
          if (name[0] == null) {
            first.append(buffer.toString());
            int end = first.indexOf("\n");
            if (end >= 0) {
              name[0] = first.substring(0, end).trim();
            }
          }
        });
    Runnable ended =
        () -> {
          heard.remove(key);
          silentPeers.remove(key);
          lost(peer, name[0]);
        };
    response.endHandler(v -> ended.run());
    response.exceptionHandler(e -> ended.run());
  }

  /** The peer's answer ended: if its port now refuses connections, take its members out. */
  private void lost(HostInfo peer, String name) {
    if (!watched.containsKey(peer)) {
      return;
    }
    probe
        .connect(peer.port(), peer.host())
        .onComplete(
            connected -> {
              LOG.debug(
                  "The watch of {} at {}:{} ended; connecting again: {}",
                  name,
                  peer.host(),
                  peer.port(),
                  connected.succeeded() ? "connected" : connected.cause().toString());
              watched.remove(peer);
              if (connected.succeeded()) {
                connected.result().close();
              } else if (name != null
                  && !name.equals(self)
                  && connected.cause() instanceof ConnectException) {
                removeMembers(peer, name);
              }
            });
  }

  private void removeMembers(HostInfo peer, String name) {
    vertx.executeBlocking(
        () -> {
          try (Admin admin =
              Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            List<String> removed = StaticMembers.remove(admin, groupId, name, ADMIN_TIMEOUT);
            if (!removed.isEmpty()) {
              LOG.warn(
                  "Instance {} at {}:{} died (its connection closed and its port refuses"
                      + " connections): removed {} from the processor's group so its partitions"
                      + " move now",
                  name,
                  peer.host(),
                  peer.port(),
                  removed);
            }
          } catch (Exception e) {
            if (e instanceof InterruptedException) {
              Thread.currentThread().interrupt();
            }
            LOG.warn(
                "Could not remove the members of dead instance {} from the group: {}",
                name,
                e.toString());
          }
          return null;
        },
        false);
  }

  @Override
  public void close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    if (silenceTimer >= 0) {
      vertx.cancelTimer(silenceTimer);
    }
    client.close();
    probe.close();
  }
}
