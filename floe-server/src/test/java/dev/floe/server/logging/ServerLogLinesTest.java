package dev.floe.server.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The server's own logback.xml writes a caller's input without letting it start a line: CR, LF and
 * other control characters in a message or an exception's message come out escaped, while a stack
 * trace keeps one frame per line.
 */
class ServerLogLinesTest {
  private static final String FORGED = "orders\r\n12:00:00.000 ERROR [main] d.f.Admin - granted";

  @Test
  void controlCharactersInAMessageDoNotStartALine() throws Exception {
    List<String> lines = encode(event("Cannot read the metadata file {}", null, FORGED));

    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .contains("Cannot read the metadata file orders\\r\\n12:00:00.000 ERROR [main]")
        .doesNotContain("\r");
  }

  @Test
  void controlCharactersInAnExceptionMessageDoNotStartALineButFramesDo() throws Exception {
    Exception failure =
        new IllegalStateException("outer " + FORGED, new RuntimeException("inner\u0085\u2028x"));

    List<String> lines = encode(event("Unexpected failure", failure));

    assertThat(lines.get(0)).endsWith("- Unexpected failure");
    assertThat(lines.get(1))
        .isEqualTo(
            "java.lang.IllegalStateException: outer orders\\r\\n12:00:00.000 ERROR [main] d.f.Admin"
                + " - granted");
    assertThat(lines)
        .anyMatch(
            line -> line.equals("Caused by: java.lang.RuntimeException: inner\\u0085\\u2028x"));
    assertThat(lines).anyMatch(line -> line.startsWith("\tat dev.floe.server.logging."));
    assertThat(lines).noneMatch(line -> line.startsWith("12:00:00.000 ERROR"));
  }

  @Test
  void plainTextIsLeftAsItIs() {
    assertThat(ControlCharacters.escape("db.sales/orders \"ü\" \\n"))
        .isEqualTo("db.sales/orders \"ü\" \\n");
    assertThat(ControlCharacters.escape("a\tb\u0000c\u007fd\u009be"))
        .isEqualTo("a\\tb\\u0000c\\u007Fd\\u009Be");
  }

  private static ILoggingEvent event(String message, Throwable error, Object... args) {
    LoggerContext context = new LoggerContext();
    return new LoggingEvent(
        ServerLogLinesTest.class.getName(),
        context.getLogger("dev.floe.api.http.HttpErrors"),
        Level.ERROR,
        message,
        error,
        args);
  }

  /** The lines the server's STDERR appender writes for one event. */
  private static List<String> encode(ILoggingEvent event) throws Exception {
    LoggerContext context = new LoggerContext();
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    configurator.doConfigure(ServerLogLinesTest.class.getResource("/logback.xml"));
    OutputStreamAppender<ILoggingEvent> appender =
        (OutputStreamAppender<ILoggingEvent>) context.getLogger("ROOT").getAppender("STDERR");
    String text = new String(appender.getEncoder().encode(event), StandardCharsets.UTF_8);
    context.stop();
    assertThat(text).endsWith("\n");
    return Arrays.asList(text.substring(0, text.length() - 1).split("\n", -1));
  }
}
