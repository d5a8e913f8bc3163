package dev.zarrow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class WorkSharingTest {
  static List<Integer> range(int n) {
    return IntStream.range(0, n).boxed().toList();
  }

  @Test
  void resultsComeInItemOrder() {
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      assertEquals(range(100).stream().map(i -> i * i).toList(), WorkSharing.map(range(100), i -> i * i, pool));
      assertEquals(List.of(), WorkSharing.map(List.<Integer>of(), i -> i, pool));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void nestingOnAFullBoundedPoolDoesNotDeadlock() {
    // One thread: outer tasks occupy it while their inner work is queued behind them. Submit-and-join
    // would wait forever; the caller doing the work itself finishes.
    ExecutorService pool = Executors.newFixedThreadPool(1);
    try {
      List<Integer> sums = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> pool.submit(() ->
          WorkSharing.map(range(4), i -> WorkSharing.map(range(10), j -> i * j, pool).stream().mapToInt(Integer::intValue).sum(), pool)).get());
      assertEquals(List.of(0, 45, 90, 135), sums);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFailureStopsNewItemsClosesResultsAndIsRethrown() {
    AtomicInteger closed = new AtomicInteger();
    AtomicInteger started = new AtomicInteger();
    IllegalStateException boom = new IllegalStateException("boom");
    IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> WorkSharing.map(range(1000), i -> {
      started.incrementAndGet();
      if (i == 3) {
        throw boom;
      }
      return (AutoCloseable) closed::incrementAndGet;
    }, Runnable::run));
    assertSame(boom, thrown);
    assertEquals(4, started.get(), "nothing starts after the failure");
    assertEquals(3, closed.get(), "the results made are closed");
  }

  @Test
  void rejectedHelpersLeaveTheWorkToTheCaller() {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    pool.shutdown();
    assertEquals(range(5), WorkSharing.map(range(5), i -> i, pool));
    assertTrue(pool.isShutdown());
  }
}
