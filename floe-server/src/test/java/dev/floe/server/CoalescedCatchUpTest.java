package dev.floe.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Syncs that arrive together share catch-ups: one running, one for everyone who arrived while it
 * ran (which may have missed their changes), never one each.
 */
class CoalescedCatchUpTest {
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final AtomicInteger catchUps = new AtomicInteger();
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  @Test
  void aBurstOfSyncsCostsTwoCatchUps() throws Exception {
    CoalescedCatchUp coalesced =
        new CoalescedCatchUp(
            () -> {
              catchUps.incrementAndGet();
              await(release);
              return true;
            },
            executor);

    CompletableFuture<Boolean> first = coalesced.await();
    List<CompletableFuture<Boolean>> burst = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      burst.add(coalesced.await());
    }
    release.countDown();

    assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
    for (CompletableFuture<Boolean> sync : burst) {
      assertThat(sync.get(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(catchUps).hasValue(2);
  }

  @Test
  void aSyncAfterTheLastRoundEndedStartsAFreshOne() throws Exception {
    release.countDown();
    CoalescedCatchUp coalesced =
        new CoalescedCatchUp(() -> catchUps.incrementAndGet() != 2, executor);

    assertThat(coalesced.await().get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(coalesced.await().get(10, TimeUnit.SECONDS)).as("the second one failed").isFalse();
    assertThat(coalesced.await().get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(catchUps).hasValue(3);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
