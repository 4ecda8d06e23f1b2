package dev.floe.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;

/** How a workload's requests are sent: closed-loop for throughput, open-loop for latency. */
final class Load {
  private Load() {}

  /** {@code clients} threads, each sending its next request as soon as the last one is answered. */
  static Stats closedLoop(int seconds, int clients, IntSupplier op) {
    Stats stats = new Stats();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    long start = System.nanoTime();
    parallel(
        clients,
        c -> {
          while (System.nanoTime() < deadline) {
            timed(stats, op);
          }
        });
    stats.elapsed(System.nanoTime() - start);
    return stats;
  }

  /**
   * Requests at a fixed rate whatever the answers' speed; each latency counts from when its request
   * was due, so a stall is not hidden (no coordinated omission).
   */
  static Stats openLoop(int seconds, int perSecond, IntSupplier op) {
    Stats stats = new Stats();
    long total = (long) perSecond * seconds;
    long interval = 1_000_000_000L / perSecond;
    ExecutorService pool = Executors.newFixedThreadPool(32);
    CountDownLatch done = new CountDownLatch((int) total);
    long start = System.nanoTime();
    for (long i = 0; i < total; i++) {
      long due = start + i * interval;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
      pool.execute(
          () -> {
            int status = op.getAsInt();
            if (status >= 200 && status < 300) {
              stats.record(System.nanoTime() - due);
            } else {
              stats.error();
            }
            done.countDown();
          });
    }
    try {
      done.await(5, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stats.elapsed(System.nanoTime() - start);
    pool.shutdownNow();
    return stats;
  }

  /** Runs one request and counts it: a 2xx by its latency, a 409 as a conflict, else an error. */
  static void timed(Stats stats, IntSupplier op) {
    long began = System.nanoTime();
    int status = op.getAsInt();
    if (status >= 200 && status < 300) {
      stats.record(System.nanoTime() - began);
    } else if (status == 409) {
      stats.conflict();
    } else {
      stats.error();
    }
  }

  /** Runs {@code tasks} tasks, each on a thread of its own, and waits for all. */
  static void parallel(int tasks, IntConsumer task) {
    parallel(tasks, task, tasks);
  }

  /** Runs {@code tasks} tasks on {@code threads} threads (at most 64) and waits for all. */
  static void parallel(int tasks, IntConsumer task, int threads) {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, 64)));
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      int index = i;
      futures.add(pool.submit(() -> task.accept(index)));
    }
    try {
      for (Future<?> future : futures) {
        future.get();
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      pool.shutdownNow();
    }
  }
}
