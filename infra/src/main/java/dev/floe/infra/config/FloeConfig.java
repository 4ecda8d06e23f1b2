package dev.floe.infra.config;

import dev.floe.infra.storage.config.StorageConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Floe's configuration: defaults, overridden by a properties file ({@code --config}), overridden by
 * command-line flags. Every key is listed in README.md's configuration reference.
 *
 * @param kafkaBootstrap {@code host:port,…} of an existing cluster, or null for the embedded one
 * @param warehouses warehouse name → storage root ({@code file:///…})
 * @param haltBefore fault tests only: record types before which the processor halts the process
 * @param auth how requests are authenticated
 * @param http bounds on the HTTP server's connections
 * @param storage each warehouse's storage and the named storage profiles (docs/storage.md)
 * @param recoveryPeriods warehouse → how long a dropped table or view is kept, restorable ({@code
 *     floe.warehouse.<w>.recovery-period}); a warehouse not listed keeps them for {@link
 *     #DEFAULT_RECOVERY_PERIOD}
 * @param sessionTimeout how long the Kafka group waits for a silent instance before its partitions
 *     move to the others (the processor's consumer {@code session.timeout.ms})
 */
public record FloeConfig(
    String host,
    int port,
    Path dataDir,
    String kafkaBootstrap,
    int embeddedKafkaPort,
    String topicPrefix,
    int partitions,
    short replicationFactor,
    Map<String, String> warehouses,
    String defaultWarehouse,
    Duration replyTimeout,
    long commitIntervalMs,
    int streamThreads,
    Duration purgeInterval,
    boolean auditReads,
    int standbyReplicas,
    Duration idempotencyKeyLifetime,
    Set<String> haltBefore,
    AuthConfig auth,
    HttpConfig http,
    StorageConfig storage,
    Map<String, Duration> recoveryPeriods,
    Duration sessionTimeout,
    Set<String> keepsExpiredNamespaceFiles,
    MaintenanceConfig maintenance) {

  /**
   * Kafka brokers refuse a session shorter than their {@code group.min.session.timeout.ms}, 6 s by
   * default; the floor is the fastest an instance fault is detected without the operator changing
   * the brokers.
   */
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(6);

  /** How long a dropped table or view is kept when its warehouse does not say. */
  public static final Duration DEFAULT_RECOVERY_PERIOD = Duration.ofDays(7);

  public FloeConfig {
    recoveryPeriods = recoveryPeriods == null ? Map.of() : Map.copyOf(recoveryPeriods);
    recoveryPeriods.forEach(
        (warehouse, period) -> {
          if (period.isNegative()) {
            throw new IllegalArgumentException(
                "floe.warehouse." + warehouse + ".recovery-period must not be negative");
          }
        });
    haltBefore = haltBefore == null ? Set.of() : Set.copyOf(haltBefore);
    keepsExpiredNamespaceFiles =
        keepsExpiredNamespaceFiles == null ? Set.of() : Set.copyOf(keepsExpiredNamespaceFiles);
    sessionTimeout = sessionTimeout == null ? DEFAULT_SESSION_TIMEOUT : sessionTimeout;
    auth = auth == null ? AuthConfig.NONE : auth;
    http = http == null ? HttpConfig.DEFAULT : http;
    Objects.requireNonNull(dataDir, "dataDir");
    warehouses = Map.copyOf(warehouses);
    storage = storage == null ? StorageConfig.local(warehouses) : storage;
    if (!warehouses.containsKey(defaultWarehouse)) {
      throw new IllegalArgumentException(
          "default warehouse " + defaultWarehouse + " is not configured");
    }
    if (partitions < 1) {
      throw new IllegalArgumentException("floe.kafka.partitions must be at least 1");
    }
  }

  public boolean embeddedKafka() {
    return kafkaBootstrap == null || kafkaBootstrap.isBlank();
  }

  public String warehouseRoot(String warehouse) {
    return warehouses.get(warehouse);
  }

  /**
   * How long a dropped table or view of this warehouse is kept, restorable, before it is expunged;
   * zero when a drop is final at once.
   */
  public Duration recoveryPeriod(String warehouse) {
    return recoveryPeriods.getOrDefault(warehouse, DEFAULT_RECOVERY_PERIOD);
  }

  /**
   * Whether the files left in an expired namespace's storage area are deleted ({@code
   * floe.warehouse.<w>.expired-namespace-files=delete}, the default) or kept ({@code keep}).
   */
  public boolean deletesExpiredNamespaceFiles(String warehouse) {
    return !keepsExpiredNamespaceFiles.contains(warehouse);
  }

  /**
   * Reads the configuration; {@code overrides} (from flags) win over the file, which wins over
   * defaults.
   */
  public static FloeConfig load(Path file, Map<String, String> overrides) {
    Properties props = new Properties();
    if (file != null) {
      try (InputStream in = Files.newInputStream(file)) {
        props.load(in);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read configuration file " + file, e);
      }
    }
    overrides.forEach(props::setProperty);
    return fromProperties(props);
  }

  /**
   * @throws IllegalArgumentException for an unknown {@code floe.*} key ({@link ConfigKeys}) or a
   *     bad value
   */
  public static FloeConfig fromProperties(Properties props) {
    ConfigKeys.check(props);
    Path dataDir =
        Path.of(props.getProperty("floe.data-dir", "floe-data")).toAbsolutePath().normalize();
    Map<String, String> warehouses = new LinkedHashMap<>();
    for (String name : props.stringPropertyNames()) {
      if (name.startsWith("floe.warehouse.") && name.endsWith(".location")) {
        String warehouse =
            name.substring("floe.warehouse.".length(), name.length() - ".location".length());
        warehouses.put(warehouse, trimSlash(props.getProperty(name)));
      }
    }
    String defaultWarehouse = props.getProperty("floe.default-warehouse", "default");
    warehouses.putIfAbsent(
        defaultWarehouse, trimSlash(dataDir.resolve("warehouse").toUri().toString()));
    return new FloeConfig(
        props.getProperty("floe.host", "0.0.0.0"),
        Integer.parseInt(props.getProperty("floe.port", "8181")),
        dataDir,
        props.getProperty("floe.kafka.bootstrap-servers"),
        Integer.parseInt(props.getProperty("floe.kafka.embedded-port", "0")),
        props.getProperty("floe.kafka.topic-prefix", "floe."),
        Integer.parseInt(props.getProperty("floe.kafka.partitions", "4")),
        Short.parseShort(props.getProperty("floe.kafka.replication-factor", "1")),
        warehouses,
        defaultWarehouse,
        Duration.parse(props.getProperty("floe.reply-timeout", "PT30S")),
        Long.parseLong(props.getProperty("floe.streams.commit-interval-ms", "20")),
        Integer.parseInt(props.getProperty("floe.streams.threads", "1")),
        Duration.parse(props.getProperty("floe.purge-interval", "PT1M")),
        Boolean.parseBoolean(props.getProperty("floe.audit.reads", "false")),
        Integer.parseInt(props.getProperty("floe.streams.standby-replicas", "0")),
        Duration.parse(props.getProperty("floe.idempotency-key-lifetime", "PT30M")),
        Arrays.stream(props.getProperty("floe.testing.halt-before", "").split(","))
            .map(String::trim)
            .filter(type -> !type.isEmpty())
            .collect(Collectors.toSet()),
        AuthConfig.fromProperties(props),
        HttpConfig.fromProperties(props),
        StorageConfig.fromProperties(props, warehouses),
        recoveryPeriods(props),
        Duration.parse(
            props.getProperty("floe.streams.session-timeout", DEFAULT_SESSION_TIMEOUT.toString())),
        keepsExpiredNamespaceFiles(props),
        MaintenanceConfig.fromProperties(props));
  }

  private static Set<String> keepsExpiredNamespaceFiles(Properties props) {
    Set<String> keeping = new TreeSet<>();
    String suffix = ".expired-namespace-files";
    for (String name : props.stringPropertyNames()) {
      if (name.startsWith("floe.warehouse.") && name.endsWith(suffix)) {
        String value = props.getProperty(name).trim();
        if (value.equals("keep")) {
          keeping.add(name.substring("floe.warehouse.".length(), name.length() - suffix.length()));
        } else if (!value.equals("delete")) {
          throw new IllegalArgumentException(name + " must be delete or keep: " + value);
        }
      }
    }
    return keeping;
  }

  private static Map<String, Duration> recoveryPeriods(Properties props) {
    Map<String, Duration> periods = new LinkedHashMap<>();
    String suffix = ".recovery-period";
    for (String name : props.stringPropertyNames()) {
      if (name.startsWith("floe.warehouse.") && name.endsWith(suffix)) {
        String warehouse =
            name.substring("floe.warehouse.".length(), name.length() - suffix.length());
        try {
          periods.put(warehouse, Duration.parse(props.getProperty(name).trim()));
        } catch (DateTimeParseException e) {
          throw new IllegalArgumentException(
              name
                  + " must be an ISO-8601 duration such as P7D or PT0S: "
                  + props.getProperty(name),
              e);
        }
      }
    }
    return periods;
  }

  private static String trimSlash(String location) {
    return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
  }
}
