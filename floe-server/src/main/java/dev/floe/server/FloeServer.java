package dev.floe.server;

import dev.floe.api.auth.Authenticator;
import dev.floe.api.http.ApiException;
import dev.floe.api.http.AsOfCatalogs;
import dev.floe.api.http.CatalogContext;
import dev.floe.api.http.CatalogMetrics;
import dev.floe.api.http.ConnectionLimits;
import dev.floe.api.http.Forwarder;
import dev.floe.api.http.HealthHandlers;
import dev.floe.api.http.HttpErrors;
import dev.floe.api.http.IcebergRoutes;
import dev.floe.api.http.InternalAuth;
import dev.floe.api.http.KafkaAuditLog;
import dev.floe.api.http.RestRouter;
import dev.floe.api.http.StrictRequestDecoder;
import dev.floe.api.http.TableMaintainer;
import dev.floe.client.CommandGateway;
import dev.floe.client.KafkaReachability;
import dev.floe.events.CommandReply;
import dev.floe.events.Topics;
import dev.floe.events.command.CatalogCommand;
import dev.floe.events.state.StoreNames;
import dev.floe.infra.config.FloeConfig;
import dev.floe.infra.kafka.EmbeddedKafkaBroker;
import dev.floe.infra.kafka.TopicProvisioner;
import dev.floe.infra.storage.MetadataFiles;
import dev.floe.infra.storage.StorageSelfCheck;
import dev.floe.infra.storage.vending.CredentialVendors;
import dev.floe.processor.kafka.ProcessorStarter;
import dev.floe.projections.FreezeGuard;
import dev.floe.projections.StreamsCatalogQueries;
import dev.floe.projections.access.AccessView;
import dev.floe.projections.audit.RecentAudit;
import dev.floe.projections.events.EventLogPages;
import dev.floe.projections.events.EventTail;
import dev.floe.projections.lineage.LineageIndex;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: starts (or joins) Kafka, the processor, the command gateway and the HTTP
 * server, and stops them in reverse order.
 */
public final class FloeServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FloeServer.class);
  private static final String LIVE = "/health/live";

  private final FloeConfig config;
  private EmbeddedKafkaBroker broker;
  private KafkaStreams streams;
  private CommandGateway gateway;
  private Vertx vertx;
  private HttpServer http;
  private ConnectionLimits connectionLimits;
  private String bootstrapServers;
  private volatile RestRouter router;
  private HostInfo self;
  private Purger purger;
  private TableMaintainer maintainer;
  private KafkaAuditLog audit;
  private LineageIndex lineage;

  /** The consumers the events endpoint's requests share (never one per request). */
  private static final int EVENT_READERS = 2;

  private EventLogPages eventPages;
  private EventTail eventTail;
  private RecentAudit recentAudit;
  private AccessView accessView;
  private final MetadataFiles metadataFiles;
  private final CredentialVendors credentialVendors;
  private KafkaReachability kafkaReachability;
  private PeerWatch peerWatch;
  private String groupInstanceId;

  private FloeServer(FloeConfig config) {
    this.config = config;
    this.metadataFiles = new MetadataFiles(config.storage());
    this.credentialVendors = new CredentialVendors(config.storage(), Clock.systemUTC());
  }

  public static FloeServer start(FloeConfig config) {
    FloeServer server = new FloeServer(config);
    try {
      server.startAll();
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  private void startAll() {
    long begun = System.nanoTime();
    Topics topics = new Topics(config.topicPrefix());
    StorageSelfCheck.run(config.storage(), metadataFiles, credentialVendors);
    bootstrapServers = startKafka(topics);
    int port = listen();
    long kafkaReady = System.nanoTime();
    startStreams(topics, port);
    long processorReady = System.nanoTime();
    String instanceId = "floe-" + UUID.randomUUID();
    gateway = new CommandGateway(bootstrapServers, topics, instanceId, config.replyTimeout());
    CatalogMetrics metrics = new CatalogMetrics(streams, connectionLimits);
    StreamsCatalogQueries queries =
        new StreamsCatalogQueries(
            streams, self, metadataFiles, FreezeGuard.start(config.sessionTimeout()));
    CatalogContext catalog =
        new CatalogContext(
            config,
            queries,
            gateway,
            vertx,
            metadataFiles,
            metrics,
            new AsOfCatalogs(bootstrapServers, topics.events(), metadataFiles),
            credentialVendors);
    accessView =
        new AccessView(
                bootstrapServers, topics.applicationId() + "-" + StoreNames.ACCESS + "-changelog")
            .start(Duration.ofMinutes(5));
    catalog.withAccess(accessView::snapshot);
    InternalAuth internal = new InternalAuth(() -> accessView.snapshot().instanceSecret());
    AccessSetup.ensureInstanceSecret(accessView, this::submitNow, instanceId);
    AccessSetup access = new AccessSetup(accessView, vertx, this::peers, internal);
    long accessReady = System.nanoTime();
    if (config.auth().enabled()) {
      catalog.withAccessSync(access::syncEverywhere);
    }
    // Before the router is in place, so a ready instance always has its admin token.
    if (config.auth().enabled()) {
      AccessSetup.bootstrapAdmin(config, accessView, this::submitNow, instanceId);
    } else {
      LOG.warn(
          "AUTHENTICATION IS OFF (floe.auth=none): every request acts as an unrestricted"
              + " 'anonymous'. Use this for local experiments only.");
    }
    audit = new KafkaAuditLog(bootstrapServers, topics, config.auditReads());
    lineage =
        new LineageIndex(
                bootstrapServers,
                topics.events(),
                warehouse -> !config.recoveryPeriod(warehouse).isZero())
            .start();
    eventPages = new EventLogPages(bootstrapServers, topics.events(), EVENT_READERS);
    eventTail = new EventTail(bootstrapServers, topics.events()).start();
    recentAudit = new RecentAudit(bootstrapServers, topics.audit(), topics.dataAccess());
    kafkaReachability = new KafkaReachability(bootstrapServers);
    HealthHandlers health = new HealthHandlers(streams::state, kafkaReachability::check);
    peerWatch =
        new PeerWatch(
            vertx,
            this::peers,
            internal,
            groupInstanceId,
            bootstrapServers,
            topics.applicationId(),
            config.http().idleTimeout());
    Forwarder forwarder = new Forwarder(vertx, peerWatch::silent);
    peerWatch.onSilent(forwarder::abandon);
    router =
        IcebergRoutes.router(
                catalog, audit, lineage, eventPages, eventTail, recentAudit, access::syncEverywhere)
            .authenticator(new Authenticator(config.auth(), accessView::snapshot))
            .internalAuth(internal)
            .addUnaudited(HttpMethod.POST, AccessSetup.SYNC_PATH, access::handleSync)
            .addUnaudited(HttpMethod.GET, PeerWatch.ALIVE_PATH, peerWatch::handleAlive)
            .addUnaudited(HttpMethod.GET, LIVE, health::handleLive)
            .addUnaudited(HttpMethod.GET, "/health/ready", health::handleReady)
            .metrics(metrics)
            .withForwarder(forwarder, self.host() + ":" + self.port());
    peerWatch.start();
    purger = new Purger(config, queries, metadataFiles, gateway);
    purger.start(config.purgeInterval());
    maintainer = new TableMaintainer(catalog, config.maintenance());
    maintainer.start();
    long now = System.nanoTime();
    LOG.info(
        "Floe instance {} serving the Iceberg REST catalog on port {}, started in {} s (storage"
            + " check, Kafka and the HTTP port {} s, the processor {} s, the command gateway and"
            + " access view {} s, the rest {} s)",
        instanceId,
        port,
        seconds(now - begun),
        seconds(kafkaReady - begun),
        seconds(processorReady - kafkaReady),
        seconds(accessReady - processorReady),
        seconds(now - accessReady));
    this.port = port;
  }

  private int port;

  /**
   * Starts the embedded broker, if Floe runs one, and creates Floe's topics; returns Kafka's
   * address.
   */
  private String startKafka(Topics topics) {
    String bootstrap;
    if (config.embeddedKafka()) {
      broker =
          new EmbeddedKafkaBroker(config.dataDir().resolve("kafka"), config.embeddedKafkaPort());
      broker.start();
      bootstrap = broker.bootstrapServers();
    } else {
      bootstrap = config.kafkaBootstrap();
    }
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      TopicProvisioner.ensureTopics(admin, topics, config.partitions(), config.replicationFactor());
    }
    return bootstrap;
  }

  /** Opens the HTTP port, answering 503 until the router is in place; returns the port. */
  private int listen() {
    vertx =
        Vertx.vertx(
            new VertxOptions()
                .setEventLoopPoolSize(Math.max(2, Runtime.getRuntime().availableProcessors())));
    HttpServerOptions options = serverOptions();
    http = vertx.createHttpServer(options);
    connectionLimits = new ConnectionLimits(vertx, config.http());
    http.connectionHandler(
        connection -> {
          StrictRequestDecoder.install(connection, options);
          connectionLimits.onConnection(connection);
        });
    ConsoleFiles console = new ConsoleFiles(config.auth());
    // Listen first (the port is needed for Kafka Streams' application.server); answer 503 until
    // ready.
    http.requestHandler(
        request -> {
          connectionLimits.onRequest(request);
          if (console.handle(request)) {
            return;
          }
          RestRouter ready = router;
          if (ready == null) {
            answerWhileStarting(request);
          } else {
            ready.handle(request);
          }
        });
    http.invalidRequestHandler(HttpErrors::respondToUndecodable);
    return await(http.listen(0 == config.port() ? 0 : config.port()).map(HttpServer::actualPort));
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.2f", nanos / 1e9);
  }

  /**
   * HTTP/1.1 only: with cleartext HTTP/2 on, Vert.x hands a connection over only once its first
   * request head is complete (it might be an upgrade), too late to time out a head that never
   * completes.
   */
  private HttpServerOptions serverOptions() {
    return new HttpServerOptions()
        .setHost(config.host())
        .setPort(config.port())
        .setHttp2ClearTextEnabled(false)
        .setIdleTimeout((int) Math.max(1, config.http().idleTimeout().toMillis()))
        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
  }

  /**
   * Before the processor runs: the process is live, and every other request is answered 503 with
   * the ErrorModel and {@code Retry-After} (the stores are restoring).
   */
  private static void answerWhileStarting(HttpServerRequest request) {
    if (request.method() == HttpMethod.GET && LIVE.equals(request.path())) {
      request.response().putHeader("Content-Type", "application/json").end("{\"status\":\"UP\"}");
      return;
    }
    request.response().putHeader("Retry-After", "1");
    HttpErrors.respond(
        request.response(),
        ApiException.serviceUnavailable("Floe is starting: its stores are being restored"));
  }

  private CommandReply submitNow(CatalogCommand command) {
    try {
      return gateway.submit(command).get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot set up the admin principal: " + e, e);
    }
  }

  /** The other instances serving this catalog (Kafka Streams' application.server of each). */
  private List<HostInfo> peers() {
    return streams.metadataForAllStreamsClients().stream()
        .map(StreamsMetadata::hostInfo)
        .filter(host -> !host.equals(self))
        .distinct()
        .toList();
  }

  public int port() {
    return port;
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  private void startStreams(Topics topics, int port) {
    String host = "0.0.0.0".equals(config.host()) ? "localhost" : config.host();
    self = new HostInfo(host, port);
    ProcessorStarter starter =
        new ProcessorStarter(config, topics, bootstrapServers, metadataFiles);
    groupInstanceId = starter.stableInstanceId();
    streams = starter.start(host + ":" + port);
  }

  @Override
  public void close() {
    closeEach(peerWatch, maintainer, purger);
    if (http != null) {
      awaitQuietly(http.close());
    }
    closeEach(
        gateway, audit, eventTail, recentAudit, eventPages, lineage, accessView, kafkaReachability);
    if (streams != null) {
      streams.close(Duration.ofSeconds(30));
    }
    if (vertx != null) {
      awaitQuietly(vertx.close());
    }
    metadataFiles.close();
    credentialVendors.close();
    closeEach(broker);
  }

  /** Closes each part that was started, in order: one that fails leaves none of the rest open. */
  private static void closeEach(AutoCloseable... parts) {
    for (AutoCloseable part : parts) {
      if (part == null) {
        continue;
      }
      try {
        part.close();
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        LOG.warn("Shutdown step did not finish cleanly: {}", e.toString());
      }
    }
  }

  private static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot start the HTTP server", e);
    }
  }

  private static void awaitQuietly(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("Shutdown step did not finish cleanly: {}", e.toString());
    }
  }
}
