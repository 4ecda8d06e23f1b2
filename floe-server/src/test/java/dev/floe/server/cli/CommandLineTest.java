package dev.floe.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.sun.net.httpserver.HttpServer;
import dev.floe.server.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The {@code floe} command line as a user meets it, run in this JVM through {@link Main#run}: every
 * command's help, and what each command that talks to a server or a broker says when there is none,
 * when its URL has no scheme, when its token is refused, and when an argument is missing. Every run
 * ends within 5 seconds, without a stack trace, and a failure is one line saying what to do, with
 * exit status 2 for a command line that cannot work and 1 for a failure of the work.
 *
 * <p>No Floe server is started: "no server" is a port where nothing listens, and "a refused token"
 * is a stub that answers every request with 401, as Floe does for an unknown token.
 */
class CommandLineTest {
  private static final Duration LIMIT = Duration.ofSeconds(5);
  private static final String START_THE_SERVER =
      "; is the server running? Start it with bin/floe serve";
  private static final String GIVE_A_TOKEN =
      "; pass a valid --token, set FLOE_TOKEN, or run where floe-data/admin.token is";

  private static HttpServer refusing;
  private static String refusingUrl;
  private static int deadPort;

  @TempDir static Path dir;

  /** What one run printed, and its exit status. */
  record Run(int exit, String out, String err) {
    /** The one line of error a failed run prints. */
    String errorLine() {
      assertThat(err.lines().toList()).as("stderr of a failed run: " + err).hasSize(1);
      assertThat(out).as("stdout of a failed run").isEmpty();
      return err.lines().findFirst().orElseThrow();
    }
  }

  @BeforeAll
  static void startAStubThatRefusesEveryToken() throws IOException {
    refusing = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    refusing.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          byte[] body =
              ("{\"error\":{\"message\":\"Unknown or revoked token\","
                      + "\"type\":\"NotAuthorizedException\",\"code\":401}}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(401, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    refusing.start();
    refusingUrl = "http://127.0.0.1:" + refusing.getAddress().getPort();
    try (ServerSocket free = new ServerSocket(0)) {
      deadPort = free.getLocalPort();
    }
  }

  @AfterAll
  static void stopTheStub() {
    refusing.stop(0);
  }

  /** Every command and subcommand, as the words that name it after {@code floe}. */
  static Stream<List<String>> everyCommand() {
    List<List<String>> paths = new ArrayList<>();
    collect(Main.commandLine(new String[0], System.out, System.err), List.of(), paths);
    return paths.stream();
  }

  private static void collect(CommandLine command, List<String> path, List<List<String>> paths) {
    paths.add(path);
    command
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              List<String> subPath = new ArrayList<>(path);
              subPath.add(name);
              collect(sub, subPath, paths);
            });
  }

  @ParameterizedTest
  @MethodSource("everyCommand")
  void everyCommandShowsItsOptionsAndAnExample(List<String> path) {
    Run run = floe(concat(path, "--help"));
    assertThat(run.exit()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out())
        .startsWith(
            "Usage: floe" + path.stream().map(word -> " " + word).reduce("", String::concat))
        .contains("-h, --help")
        .contains("Example");
    String examples = run.out().substring(run.out().lastIndexOf("Example"));
    assertThat(examples.lines().skip(1).toList())
        .as("examples fit in 80 columns, so none is wrapped")
        .allSatisfy(line -> assertThat(line).startsWith("  "));
  }

  @Test
  void floeAloneAndHelpListTheCommands() {
    for (String[] args : List.of(new String[0], new String[] {"--help"}, new String[] {"help"})) {
      Run run = floe(args);
      assertThat(run.exit()).isZero();
      assertThat(run.out())
          .startsWith("Usage: floe")
          .contains("serve", "broker", "latency", "replay", "events", "audit", "principals")
          .contains("tokens", "grants", "visibility", "deleted", "bench");
    }
  }

  @Test
  void helpFollowsACommandAndItsSubcommand() {
    String help = floe("principals", "create", "--help").out();
    assertThat(floe("help", "principals", "create").out()).isEqualTo(help);
    assertThat(floe("principals", "help", "create").out()).isEqualTo(help);
    assertThat(floe("help", "events").out()).startsWith("Usage: floe events");
    Run unknown = floe("help", "principals", "nosuch");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.errorLine())
        .isEqualTo("error: unknown command 'floe principals nosuch'; see floe principals --help");
  }

  @Test
  void unknownCommandsAndOptionsAreOneLineNamingThem() {
    assertUsageError(floe("nosuch"), "unknown command 'nosuch'", "floe");
    assertUsageError(floe("tokens", "mint"), "unknown command 'mint'", "floe tokens");
    assertUsageError(floe("latency", "extra"), "'extra'", "floe latency");
    assertUsageError(floe("--bogus"), "'--bogus'", "floe");
    assertUsageError(floe("latency", "--bogus"), "unknown option: '--bogus'", "floe latency");
    assertUsageError(
        floe("grants", "list", "--warehouse", "w", "--bogus", "1"),
        "'--bogus'",
        "floe grants list");
    assertUsageError(floe("principals"), "missing required subcommand", "floe principals");
    assertUsageError(floe("events"), "missing required subcommand", "floe events");
  }

  /** Commands that talk to a Floe server, with what they need besides --url and --token. */
  static Stream<List<String>> serverCommands() {
    return Stream.of(
        List.of("latency", "--count", "1"),
        List.of("principals", "list"),
        List.of("principals", "create", "alice", "--kind", "user"),
        List.of("principals", "delete", "alice"),
        List.of("principals", "role", "alice", "--warehouse", "w", "--role", "reader"),
        List.of("tokens", "create", "alice"),
        List.of("tokens", "list", "alice"),
        List.of("tokens", "revoke", "tok-1"),
        List.of("grants", "list", "--warehouse", "w"),
        List.of(
            "grants",
            "add",
            "--warehouse",
            "w",
            "--principal",
            "p",
            "--namespace",
            "db",
            "--action",
            "read"),
        List.of("grants", "revoke", "--warehouse", "w", "--principal", "p", "--namespace", "db"),
        List.of("visibility", "get", "--warehouse", "w", "--namespace", "db"),
        List.of(
            "visibility", "set", "--warehouse", "w", "--namespace", "db", "--visibility", "public"),
        List.of("deleted", "list", "--warehouse", "w"),
        List.of("deleted", "restore", "--warehouse", "w", "--namespace", "db", "--table", "t"),
        List.of("deleted", "expunge", "--warehouse", "w", "--namespace", "db", "--table", "t"),
        List.of("events", "tail", "--from-beginning", "--to-end"));
  }

  @ParameterizedTest
  @MethodSource("serverCommands")
  void withNoServerTheyNameTheUrlAndSayHowToStartOne(List<String> command) {
    String url = "http://127.0.0.1:" + deadPort;
    Run run = floe(concat(command, "--url", url, "--token", "t"));
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.errorLine())
        .isEqualTo("error: cannot reach " + url + " (connection refused)" + START_THE_SERVER);
  }

  @Test
  void anUnknownHostIsNamed() {
    Run run = floe("principals", "list", "--url", "http://nosuchhost.invalid:8181", "--token", "t");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.errorLine())
        .isEqualTo(
            "error: cannot reach http://nosuchhost.invalid:8181 (unknown host); check the host"
                + " name in --url");
  }

  @ParameterizedTest
  @MethodSource("serverCommands")
  void aUrlWithoutSchemeIsAUsageError(List<String> command) {
    Run run = floe(concat(command, "--url", "localhost:8181", "--token", "t"));
    assertUsageError(
        run,
        "invalid value for option '--url': 'localhost:8181' is not a server URL such as"
            + " http://localhost:8181",
        name(command));
  }

  @ParameterizedTest
  @MethodSource("serverCommands")
  void aRefusedTokenSaysHowToGiveAnother(List<String> command) {
    Run run = floe(concat(command, "--url", refusingUrl, "--token", "not-a-token"));
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.errorLine())
        .startsWith("error: NotAuthorizedException: Unknown or revoked token; ")
        .endsWith(GIVE_A_TOKEN);
  }

  /** Server commands without an argument they need; each names what is missing. */
  static Stream<List<String>> missingArguments() {
    return Stream.of(
        List.of("latency", "--count"),
        List.of("principals", "list", "--token"),
        List.of("principals", "create"),
        List.of("principals", "delete"),
        List.of("principals", "role", "alice", "--warehouse", "w"),
        List.of("tokens", "create"),
        List.of("tokens", "list"),
        List.of("tokens", "revoke"),
        List.of("grants", "list"),
        List.of("grants", "add", "--warehouse", "w", "--principal", "p", "--namespace", "db"),
        List.of("grants", "revoke", "--warehouse", "w", "--namespace", "db"),
        List.of("visibility", "get", "--warehouse", "w"),
        List.of("visibility", "set", "--warehouse", "w", "--namespace", "db"),
        List.of("deleted", "list"),
        List.of("deleted", "restore", "--warehouse", "w"),
        List.of("deleted", "expunge", "--warehouse", "w"),
        List.of("events", "tail", "--url"),
        List.of("audit", "tail", "--kafka"),
        List.of("replay", "--kafka"));
  }

  @ParameterizedTest
  @MethodSource("missingArguments")
  void aMissingArgumentIsNamedBeforeAnythingIsSent(List<String> command) {
    // Were anything sent, it would go to a port where nothing listens, and exit with 1.
    List<String> args = new ArrayList<>(command);
    if (!command.get(command.size() - 1).startsWith("--")) {
      args.addAll(List.of("--url", "http://127.0.0.1:" + deadPort, "--token", "t"));
    }
    assertUsageError(floe(args.toArray(String[]::new)), "missing", name(command));
  }

  /** The tools that read Kafka, with a --kafka where no broker listens. */
  static Stream<List<String>> kafkaCommands() {
    return Stream.of(
        List.of("events", "tail"), List.of("audit", "tail"), List.of("replay", "--no-compare"));
  }

  @ParameterizedTest
  @MethodSource("kafkaCommands")
  void withNoBrokerTheyNameItAndSayHowToStartOne(List<String> command) {
    String kafka = "127.0.0.1:" + deadPort;
    Run run = floe(concat(command, "--kafka", kafka));
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.errorLine())
        .isEqualTo(
            "error: cannot reach Kafka at "
                + kafka
                + " (connection refused); is the broker running? Start the server with bin/floe"
                + " serve, or pass --kafka host:port");
  }

  @ParameterizedTest
  @MethodSource("kafkaCommands")
  void withoutKafkaOrAnEmbeddedBrokerTheySayWhatToPass(List<String> command) throws IOException {
    Path empty = Files.createTempDirectory(dir, "data");
    Run run = floe(concat(command, "--data-dir", empty.toString()));
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.errorLine())
        .startsWith("error: no --kafka given and no embedded broker in " + empty)
        .endsWith("; run this next to `floe serve`, or pass --data-dir or --kafka");
  }

  @Test
  void replayChecksTheServerItComparesWithBeforeReadingTheLog() throws IOException {
    // Anything that accepts a connection passes for the broker; the comparison is checked first.
    try (ServerSocket broker = new ServerSocket(0)) {
      String url = "http://127.0.0.1:" + deadPort;
      Run run = floe("replay", "--kafka", "127.0.0.1:" + broker.getLocalPort(), "--url", url);
      assertThat(run.exit()).isEqualTo(1);
      assertThat(run.errorLine())
          .isEqualTo("error: cannot reach " + url + " (connection refused)" + START_THE_SERVER);
    }
  }

  @Test
  void replayChecksItsUrlAndItsUntilBeforeReading() {
    assertUsageError(
        floe("replay", "--url", "localhost:8181", "--kafka", "127.0.0.1:" + deadPort),
        "invalid value for option '--url'",
        "floe replay");
    assertUsageError(
        floe("replay", "--until", "yesterday", "--kafka", "127.0.0.1:" + deadPort),
        "--until yesterday",
        "floe replay");
  }

  @Test
  void tailsRefuseBadValuesNamingTheOption() {
    assertUsageError(floe("events", "tail", "--limit", "0"), "--limit", "floe events tail");
    assertUsageError(floe("events", "tail", "--limit", "x"), "--limit", "floe events tail");
    assertUsageError(
        floe("events", "tail", "--type", "floe.table.exploded"),
        "unknown event type",
        "floe events tail");
    assertUsageError(floe("audit", "tail", "--status", "4x9"), "--status", "floe audit tail");
    assertUsageError(floe("audit", "tail", "--type", "x"), "'--type'", "floe audit tail");
  }

  @Test
  void serveRefusesABadCommandLineInOneLine() {
    String data = dir.resolve("serve").toString();
    assertUsageError(
        floe("serve", "--data-dir", data, "--port", "abc"),
        "invalid value for option '--port': 'abc' is not an int",
        "floe serve");
    assertUsageError(
        floe("serve", "--data-dir", data, "--auth", "nothing"),
        "invalid value for option '--auth'",
        "floe serve");
    assertUsageError(
        floe("serve", "--data-dir", data, "--config", dir.resolve("missing.properties").toString()),
        "missing.properties: no such file",
        "floe serve");
  }

  @Test
  void serveNamesAnUnknownConfigurationKeyInOneLine() throws IOException {
    Path config = dir.resolve("typo.properties");
    Files.writeString(config, "floe.warehouse.default.remote-signing.enabld=true\n");
    assertUsageError(
        floe("serve", "--data-dir", dir.resolve("typo").toString(), "--config", config.toString()),
        "Unknown configuration key floe.warehouse.default.remote-signing.enabld",
        "floe serve");
  }

  @Test
  void serveNamesAPortInUseBeforeStarting() throws IOException {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(0));
      int port = taken.getLocalPort();
      Run run = floe("serve", "--data-dir", dir.resolve("taken").toString(), "--port", "" + port);
      assertThat(run.exit()).isEqualTo(1);
      assertThat(run.errorLine())
          .startsWith("error: port " + port + " is already in use")
          .endsWith("; stop what listens there, or pick another port with --port");
    }
    assertThat(dir.resolve("taken")).doesNotExist();
  }

  @Test
  void brokerRefusesABadCommandLineInOneLine() {
    assertUsageError(floe("broker", "--port", "abc"), "'--port'", "floe broker");
    assertUsageError(floe("broker", "--node-id", "1"), "need --controller-quorum", "floe broker");
    assertUsageError(
        floe("broker", "--controller-quorum", "1@localhost:9093"),
        "--controller-quorum needs --node-id",
        "floe broker");
  }

  @Test
  void verboseAddsTheStackTrace() {
    String url = "http://127.0.0.1:" + deadPort;
    for (String[] args :
        List.of(
            new String[] {"--verbose", "principals", "list", "--url", url, "--token", "t"},
            new String[] {"principals", "list", "--url", url, "--token", "t", "--verbose"})) {
      Run run = run(args);
      assertThat(run.exit()).isEqualTo(1);
      assertThat(run.err())
          .startsWith("error: cannot reach " + url)
          .contains("\tat dev.floe.server.cli.CliHttp.send");
    }
  }

  /** A usage error: one line naming what is wrong and pointing at the command's help; exit 2. */
  private static void assertUsageError(Run run, String naming, String command) {
    assertThat(run.exit()).as(run.err()).isEqualTo(2);
    assertThat(run.errorLine())
        .startsWith("error: ")
        .contains(naming)
        .endsWith("; see " + command + " --help");
  }

  /** Runs {@code floe <args>} within the time limit, and checks that it shows no stack trace. */
  private static Run floe(String... args) {
    Run run = run(args);
    for (String line : (run.out() + run.err()).lines().toList()) {
      assertThat(line)
          .as("floe " + String.join(" ", args))
          .doesNotStartWith("\tat ")
          .doesNotStartWith("Exception in thread");
    }
    return run;
  }

  private static Run run(String... args) {
    return assertTimeoutPreemptively(
        LIMIT,
        () -> {
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          ByteArrayOutputStream err = new ByteArrayOutputStream();
          int exit =
              Main.run(
                  args,
                  new PrintStream(out, true, StandardCharsets.UTF_8),
                  new PrintStream(err, true, StandardCharsets.UTF_8));
          return new Run(
              exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        },
        () -> "floe " + String.join(" ", args) + " took longer than " + LIMIT);
  }

  /** {@code floe <the command's words>}: the words before the first option or argument. */
  private static String name(List<String> command) {
    List<String> words = new ArrayList<>(List.of("floe"));
    CommandLine current = Main.commandLine(new String[0], System.out, System.err);
    for (String word : command) {
      CommandLine sub = current.getSubcommands().get(word);
      if (sub == null) {
        break;
      }
      words.add(word);
      current = sub;
    }
    return String.join(" ", words);
  }

  private static String[] concat(List<String> first, String... more) {
    return Stream.concat(first.stream(), Stream.of(more)).toArray(String[]::new);
  }
}
