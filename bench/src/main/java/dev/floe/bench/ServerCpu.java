package dev.floe.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of a catalog's process on this machine, every thread of it (the embedded Kafka broker,
 * JIT and GC included), from {@code /proc/PID/stat}; and of this benchmark's own process. A
 * workload divides the difference over its measured time by the work done, so the figure is the
 * server's cost per operation whatever else shares the cores.
 */
final class ServerCpu {
  private ServerCpu() {}

  /** Clock ticks per second of {@code /proc}'s times ({@code getconf CLK_TCK}; 100 on Linux). */
  private static final long TICKS = ticksPerSecond();

  /** The process's user plus system CPU time in nanoseconds, or -1 when it cannot be read. */
  static long nanos(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return ticks(stat) * 1_000_000_000L / TICKS;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * utime plus stime of one {@code /proc/PID/stat} line, in ticks: fields 14 and 15, counted after
   * the command's name, which is in parentheses and may itself hold spaces and parentheses.
   */
  static long ticks(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    // fields[0] is field 3 (state), so field n is fields[n - 3].
    return Long.parseLong(fields[14 - 3]) + Long.parseLong(fields[15 - 3]);
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
