package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ServerCpuTest {
  @Test
  void addsOwnAndReapedChildrensTicksCountedAfterTheCommandsName() {
    // A command name holding a space and parentheses, as a thread may name itself.
    String stat =
        "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 96 0 0 0 1234 567 0 0 20 0 61 0 8 0 0";

    assertThat(ServerCpu.treeTicks(ServerCpu.fields(stat))).isEqualTo(1234 + 567 + 0 + 0);
  }

  @Test
  void countsAProcessAndTheChildrenItStarted() throws Exception {
    long self = ProcessHandle.current().pid();
    assertThat(ServerCpu.treeNanos(List.of(self))).isPositive();
    assertThat(ServerCpu.treeNanos(List.of())).isEqualTo(-1);
    assertThat(ServerCpu.treeNanos(List.of(-5L))).isEqualTo(-1);

    long before = ServerCpu.treeNanos(List.of(self));
    long ownBefore = ownNanos();
    // A child that burns about half a second of CPU and exits; the JVM reaps it.
    Process child =
        new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done").start();
    assertThat(child.waitFor()).isZero();
    long childAndOwn = ServerCpu.treeNanos(List.of(self)) - before;
    long own = ownNanos() - ownBefore;
    assertThat(childAndOwn - own).as("the child's CPU time, reaped into cutime").isPositive();
  }

  private static long ownNanos() {
    return ServerCpu.benchNanos();
  }
}
