package dev.floe.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The machine a run measured on, for the report. */
final class Machine {
  private Machine() {}

  static Map<String, Object> describe() {
    Map<String, Object> machine = new LinkedHashMap<>();
    machine.put("cores", Runtime.getRuntime().availableProcessors());
    machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    machine.put(
        "java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    machine.put("cpu", cpuModel());
    machine.put("memoryGiB", memoryGiB());
    return machine;
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return "unknown";
  }

  private static long memoryGiB() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
          return Math.round(kib / 1024.0 / 1024.0);
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return -1;
  }
}
