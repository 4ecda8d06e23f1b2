package dev.floe.server.cli;

import dev.floe.events.event.EventTypes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The flags of {@code floe events tail} and {@code floe audit tail}, parsed and checked. A bad flag
 * throws {@link IllegalArgumentException} with a message for the user.
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

  private static final Set<String> COMMON =
      Set.of("--kafka", "--data-dir", "--topic-prefix", "--table", "--limit", "--timeout-ms");
  private static final Set<String> SWITCHES = Set.of("--from-beginning", "--to-end", "--json");
  private static final Map<String, Set<String>> OWN =
      Map.of(
          "events",
          Set.of("--namespace", "--type", "--url", "--token", "--warehouse"),
          "audit",
          Set.of("--principal", "--status"));

  static TailOptions parse(String what, String[] args) {
    if (!OWN.containsKey(what)) {
      throw new IllegalArgumentException("Unknown command " + what + "; expected events or audit");
    }
    Map<String, String> flags = flags(what, args);
    String timeout = flags.get("--timeout-ms");
    return new TailOptions(
        what,
        flags.get("--kafka"),
        Path.of(flags.getOrDefault("--data-dir", "floe-data")),
        flags.getOrDefault("--topic-prefix", "floe."),
        flags.get("--table"),
        flags.get("--namespace"),
        flags.containsKey("--type")
            ? eventTypes(flags.get("--type"), flags.containsKey("--url"))
            : Set.of(),
        flags.get("--principal"),
        flags.containsKey("--status") ? statuses(flags.get("--status")) : List.of(),
        flags.containsKey("--from-beginning"),
        flags.containsKey("--json"),
        flags.containsKey("--limit") ? positive("--limit", flags.get("--limit")) : Long.MAX_VALUE,
        timeout == null ? null : Duration.ofMillis(positive("--timeout-ms", timeout)),
        flags.containsKey("--to-end"),
        flags.get("--url"),
        flags.get("--token"),
        flags.getOrDefault("--warehouse", "default"));
  }

  /** Flag to value ({@code ""} for switches); a leading {@code tail} is the subcommand's name. */
  private static Map<String, String> flags(String what, String[] args) {
    Map<String, String> flags = new HashMap<>();
    for (int i = args.length > 0 && "tail".equals(args[0]) ? 1 : 0; i < args.length; i++) {
      String flag = args[i];
      if (SWITCHES.contains(flag)) {
        flags.put(flag, "");
      } else if (!COMMON.contains(flag) && !OWN.get(what).contains(flag)) {
        throw new IllegalArgumentException(
            "Unknown option " + flag + " for floe " + what + " tail");
      } else if (i + 1 >= args.length) {
        throw new IllegalArgumentException("Missing value for " + flag);
      } else {
        flags.put(flag, args[++i]);
      }
    }
    return flags;
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

  private static long positive(String flag, String value) {
    try {
      long n = Long.parseLong(value);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below, with the flag's name
    }
    throw new IllegalArgumentException(flag + " needs a positive number, not " + value);
  }

  /**
   * Event types ({@code floe.table.committed}), or with {@code --url} the events endpoint's
   * operation types ({@code update-table}, {@code x-floe.restore-table}).
   */
  private static Set<String> eventTypes(String value, boolean operations) {
    Set<String> types = Set.copyOf(Arrays.asList(value.split(",")));
    if (!operations) {
      // A misspelt type would silently match nothing; refuse it like an unknown flag.
      types.forEach(EventTypes::classOf);
    }
    return types;
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
