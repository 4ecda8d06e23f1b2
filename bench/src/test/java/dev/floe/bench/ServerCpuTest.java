package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServerCpuTest {
  @Test
  void addsUserAndSystemTicksCountedAfterTheCommandsName() {
    // A command name holding a space and parentheses, as a thread may name itself.
    String stat =
        "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 96 0 0 0 1234 567 0 0 20 0 61 0 8 0 0";

    assertThat(ServerCpu.ticks(stat)).isEqualTo(1234 + 567);
  }

  @Test
  void readsThisProcesssOwnCpuTime() {
    assertThat(ServerCpu.nanos(ProcessHandle.current().pid())).isPositive();
    assertThat(ServerCpu.nanos(-1)).isEqualTo(-1);
  }
}
