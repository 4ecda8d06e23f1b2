package dev.floe.server.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.FloeJson;
import dev.floe.server.logging.ControlCharacters;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How the command line prints what it got: listings as aligned columns (or, with {@code --json},
 * the server's JSON), times as ISO-8601 instants in UTC, and a server's refusal as {@code <type>:
 * <message>}. Text that came from callers (names, principals) is printed with control characters
 * escaped.
 */
final class Output {
  private Output() {}

  /**
   * Left-aligned columns two spaces apart under a header row, no trailing blanks; {@code empty} is
   * printed instead when there are no rows.
   */
  static void table(PrintStream out, List<String> header, List<List<String>> rows, String empty) {
    if (rows.isEmpty()) {
      out.println(empty);
      return;
    }
    List<List<String>> cells = new ArrayList<>();
    cells.add(header);
    cells.addAll(rows);
    out.print(table(cells));
  }

  /** The columns of {@link #table(PrintStream, List, List, String)}, the first row included. */
  static String table(List<List<String>> cells) {
    List<List<String>> rows =
        cells.stream().map(row -> row.stream().map(ControlCharacters::escape).toList()).toList();
    int[] widths = new int[rows.get(0).size()];
    for (List<String> row : rows) {
      for (int c = 0; c < row.size(); c++) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.size(); c++) {
        line.append(c == 0 ? "" : "  ").append(row.get(c));
        if (c < row.size() - 1) {
          line.append(" ".repeat(widths[c] - row.get(c).length()));
        }
      }
      text.append(line.toString().stripTrailing()).append('\n');
    }
    return text.toString();
  }

  /** One line of text that came from callers, control characters escaped. */
  static void line(PrintStream out, String text) {
    out.println(ControlCharacters.escape(text));
  }

  /** The JSON, indented. */
  static void json(PrintStream out, JsonNode json) {
    try {
      out.println(FloeJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(json));
    } catch (JsonProcessingException e) {
      out.println(json);
    }
  }

  /** An instant given in epoch milliseconds, as ISO-8601 ({@code 2026-12-06T01:02:03.456Z}). */
  static String time(long epochMillis) {
    return Instant.ofEpochMilli(epochMillis).toString();
  }

  /** The levels of a JSON namespace, joined by {@code .}. */
  static String namespace(JsonNode levels) {
    List<String> names = new ArrayList<>();
    levels.forEach(level -> names.add(level.asText()));
    return String.join(".", names);
  }

  /**
   * A server's refusal as one message: {@code <type>: <message>} from an ErrorModel, or the status
   * and the body as it came when the body is not one.
   */
  static String refusal(int status, String body) {
    try {
      JsonNode error = FloeJson.mapper().readTree(body).path("error");
      if (error.hasNonNull("message")) {
        String type = error.path("type").asText("");
        return ControlCharacters.escape(
            (type.isEmpty() ? "HTTP " + status : type) + ": " + error.path("message").asText());
      }
    } catch (IOException e) {
      // not JSON: printed as it came
    }
    return ControlCharacters.escape("HTTP " + status + (body.isBlank() ? "" : ": " + body));
  }
}
