package dev.floe.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of a catalog's processes on this machine, every thread of them (the embedded Kafka broker,
 * JIT and GC included), from {@code /proc/PID/stat}; and of this benchmark's own process. A
 * workload divides the difference over its measured time by the work done, so the figure is the
 * server's cost per operation whatever else shares the cores.
 */
final class ServerCpu {
  private ServerCpu() {}

  /** Clock ticks per second of {@code /proc}'s times ({@code getconf CLK_TCK}; 100 on Linux). */
  private static final long TICKS = ticksPerSecond();

  /**
   * The fields of one {@code /proc/PID/stat} line from field 3 on, counted after the command's
   * name, which is in parentheses and may itself hold spaces and parentheses: field n is element
   * n - 3.
   */
  static String[] fields(String stat) {
    return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
  }

  /**
   * The CPU time of the processes {@code roots} and of all their descendants, in nanoseconds, or -1
   * when none can be read: every thread of each, and the times of children they have already reaped
   * ({@code cutime}, {@code cstime}). A PostgreSQL server's backends are children of its postmaster,
   * so a catalog on PostgreSQL is measured with the database it needs.
   */
  static long treeNanos(Collection<Long> roots) {
    if (roots.isEmpty()) {
      return -1;
    }
    Map<Long, Long> parents = new HashMap<>();
    Map<Long, Long> ticks = new HashMap<>();
    try (DirectoryStream<Path> proc = Files.newDirectoryStream(Path.of("/proc"))) {
      for (Path dir : proc) {
        String name = dir.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String stat = Files.readString(dir.resolve("stat"));
          String[] fields = fields(stat);
          long pid = Long.parseLong(name);
          parents.put(pid, Long.parseLong(fields[4 - 3]));
          ticks.put(pid, treeTicks(fields));
        } catch (IOException | RuntimeException e) {
          // The process ended while the directory was read: its time is its parent's now.
        }
      }
    } catch (IOException e) {
      return -1;
    }
    long total = 0;
    boolean any = false;
    for (Map.Entry<Long, Long> process : ticks.entrySet()) {
      if (descends(process.getKey(), roots, parents)) {
        total += process.getValue();
        any = true;
      }
    }
    return any ? total * 1_000_000_000L / TICKS : -1;
  }

  /** utime, stime, cutime and cstime (fields 14 to 17) of a split {@code stat} line. */
  static long treeTicks(String[] fields) {
    long sum = 0;
    for (int field = 14; field <= 17; field++) {
      sum += Long.parseLong(fields[field - 3]);
    }
    return sum;
  }

  private static boolean descends(long pid, Collection<Long> roots, Map<Long, Long> parents) {
    for (long at = pid, steps = 0; at > 1 && steps < 64; steps++) {
      if (roots.contains(at)) {
        return true;
      }
      Long parent = parents.get(at);
      if (parent == null) {
        return false;
      }
      at = parent;
    }
    return false;
  }

  /** This benchmark's CPU time in nanoseconds (all its threads), or -1. */
  static long benchNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  private static long ticksPerSecond() {
    try {
      Process getconf = new ProcessBuilder("getconf", "CLK_TCK").start();
      String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      getconf.waitFor();
      long ticks = Long.parseLong(out.trim());
      return ticks > 0 ? ticks : 100;
    } catch (IOException | RuntimeException e) {
      return 100;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 100;
    }
  }
}
