package dev.floe.server.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * The options of {@code floe events tail} and {@code floe audit tail}, checked. A bad value throws
 * {@link IllegalArgumentException} with a message for the user.
 *
 * @param limit how many matching records to print before stopping, or {@link Long#MAX_VALUE}
 * @param idleTimeout stop when no record arrived for this long, or null to follow forever
 * @param toEnd stop at the end of the log as it was when the tail started
 * @param url a Floe server whose events endpoint to read instead of Kafka (events only)
 * @param token the bearer token for {@code url} ({@link ClientToken})
 * @param warehouse the warehouse whose events {@code url} serves
 */
record TailOptions(
    String what,
    String kafka,
    Path dataDir,
    String topicPrefix,
    String table,
    String namespace,
    Set<String> types,
    String principal,
    List<String> statuses,
    boolean fromBeginning,
    boolean json,
    long limit,
    Duration idleTimeout,
    boolean toEnd,
    String url,
    String token,
    String warehouse) {

  /** The options {@code events tail} and {@code audit tail} share. */
  static final class Common {
    @Option(
        names = "--table",
        paramLabel = "ns.t",
        description = "only this table or namespace, levels joined by '.'")
    String table;

    @Option(
        names = "--from-beginning",
        description = "start at the oldest record kept instead of at the newest")
    boolean fromBeginning;

    @Option(
        names = "--to-end",
        description =
            "stop at the end of the log as it was at the start (with --from-beginning: print the"
                + " history and exit)")
    boolean toEnd;

    @Option(names = "--json", description = "print each record's JSON as written")
    boolean json;

    @Option(names = "--limit", paramLabel = "N", description = "stop after printing N records")
    Long limit;

    @Option(
        names = "--timeout-ms",
        paramLabel = "T",
        description =
            "stop once no record has arrived for T ms (default: follow until interrupted)")
    Long timeoutMs;

    @Option(
        names = "--kafka",
        paramLabel = "host:port,...",
        description = "the Kafka cluster (default: the embedded broker of --data-dir)")
    String kafka;

    @Option(
        names = "--data-dir",
        paramLabel = "DIR",
        defaultValue = "floe-data",
        description = "the data directory of a `floe serve` on this machine (default ./floe-data)")
    Path dataDir;

    @Option(
        names = "--topic-prefix",
        paramLabel = "P",
        defaultValue = "floe.",
        description = "the prefix of Floe's topic names (default ${DEFAULT-VALUE})")
    String topicPrefix;
  }

  /**
   * The options of {@code floe events tail}.
   *
   * @param types comma-separated operation types ({@code update-table}) or event types ({@code
   *     floe.table.committed})
   */
  static TailOptions events(
      Common common, String namespace, String types, String url, String token, String warehouse) {
    return new TailOptions(
        "events",
        common.kafka,
        common.dataDir,
        common.topicPrefix,
        common.table,
        namespace,
        types == null ? Set.of() : EventLines.operationTypes(types),
        null,
        List.of(),
        common.fromBeginning,
        common.json,
        limit(common),
        idleTimeout(common),
        common.toEnd,
        url,
        token,
        warehouse);
  }

  /**
   * The options of {@code floe audit tail}.
   *
   * @param statuses comma-separated HTTP statuses or classes (4xx), or null for every one
   */
  /**
   * @param dataAccess the signed and refused S3 requests per minute ({@code floe.data-access})
   *     instead of the request outcomes
   */
  static TailOptions audit(Common common, String principal, String statuses, boolean dataAccess) {
    if (dataAccess && statuses != null) {
      throw new IllegalArgumentException("--status filters request outcomes, not --data-access");
    }
    return new TailOptions(
        dataAccess ? "data-access" : "audit",
        common.kafka,
        common.dataDir,
        common.topicPrefix,
        common.table,
        null,
        Set.of(),
        principal,
        statuses == null ? List.of() : statuses(statuses),
        common.fromBeginning,
        common.json,
        limit(common),
        idleTimeout(common),
        common.toEnd,
        null,
        null,
        null);
  }

  private static long limit(Common common) {
    return common.limit == null ? Long.MAX_VALUE : positive("--limit", common.limit);
  }

  private static Duration idleTimeout(Common common) {
    return common.timeoutMs == null
        ? null
        : Duration.ofMillis(positive("--timeout-ms", common.timeoutMs));
  }

  /** Whether an HTTP status is one of {@code --status}: an exact code, or a class such as 4xx. */
  boolean statusMatches(int status) {
    return statuses.isEmpty()
        || statuses.stream()
            .anyMatch(
                s ->
                    s.endsWith("xx")
                        ? s.charAt(0) - '0' == status / 100
                        : Integer.parseInt(s) == status);
  }

  private static long positive(String flag, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(flag + " needs a positive number, not " + value);
    }
    return value;
  }

  private static List<String> statuses(String value) {
    List<String> statuses = List.of(value.split(","));
    for (String status : statuses) {
      if (!status.matches("[1-5](\\d\\d|xx)")) {
        throw new IllegalArgumentException(
            "--status needs HTTP statuses such as 409 or 5xx, not " + status);
      }
    }
    return statuses;
  }
}
