package dev.floe.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code --name value} pairs of a benchmark tool's command line. */
final class Options {
  private Options() {}

  static Map<String, String> parse(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    return options;
  }
}
