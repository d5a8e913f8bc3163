package dev.zarrow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.table.ArrayReader;
import dev.zarrow.testing.AllocatorExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Read-ahead on executors that a naive "submit, then join" would deadlock: the consumer running inside
 * a task of a 1-thread pool, and a pool whose only thread is busy. Every wait has a timeout that fails
 * the test instead of hanging the build.
 */
@ExtendWith(AllocatorExtension.class)
class ReadAheadTest {
  private static final long TIMEOUT_SECONDS = 30;

  /** A batch that records its rows and whether it was closed. */
  private record Rows(long start, long end, AtomicInteger closed) implements AutoCloseable {
    @Override
    public void close() {
      closed.incrementAndGet();
    }
  }

  /** Runs {@code work} on {@code pool}, failing (not hanging) when it does not finish in time. */
  private static <T> T within(ExecutorService pool, Callable<T> work) throws Exception {
    Future<T> result = pool.submit(work);
    try {
      return result.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      result.cancel(true);
      return fail("deadlock: the consumer did not finish in " + TIMEOUT_SECONDS + " s");
    }
  }

  /**
   * The bounds {@code from, to} of every batch of {@code [start, end)}, read by a consumer that runs
   * inside a task of the 1-thread pool that the read-ahead also decodes on.
   */
  private static List<Long> boundsReadOnOneThread(long start, long end, long step, int depth, AtomicInteger closed)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(1);
    try {
      return within(pool, () -> {
        List<Long> seen = new ArrayList<>();
        try (ReadAhead<Rows> ahead = new ReadAhead<>(start, end, step, depth, (s, e) -> new Rows(s, e, closed), pool)) {
          for (Rows next = ahead.next(); next != null; next = ahead.next()) {
            try (Rows r = next) {
              seen.add(r.start());
              seen.add(r.end());
            }
          }
        }
        return seen;
      });
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aConsumerInsideATaskOfItsOwnOneThreadPoolReadsEveryBatch() throws Exception {
    AtomicInteger closed = new AtomicInteger();
    assertEquals(List.of(0L, 10L, 10L, 20L, 20L, 30L, 30L, 40L, 40L, 50L, 50L, 60L, 60L, 70L, 70L, 80L, 80L, 90L, 90L, 95L),
        boundsReadOnOneThread(0, 95, 10, 4, closed));
    assertEquals(10, closed.get(), "every batch closed once");
  }

  @Test
  void aRangeStartingInsideAStepIsCutAtItsMultiples() throws Exception {
    assertEquals(List.of(5L, 10L, 10L, 20L, 20L, 27L), boundsReadOnOneThread(5, 27, 10, 2, new AtomicInteger()));
  }

  @Test
  void anArrayReaderConsumedOnItsOwnOneThreadPool(BufferAllocator allocator) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(1);
    try {
      ZarrOptions options = ZarrOptions.defaults().withExecutor(pool);
      ZarrArray array = Zarr.createArray(new MemoryStore(), "a", ArraySpec.of(FixedType.INT32, 1000).chunks(64), options);
      try (IntVector v = new IntVector("v", allocator)) {
        v.allocateNew(1000);
        for (int i = 0; i < 1000; i++) {
          v.set(i, i);
        }
        v.setValueCount(1000);
        array.write(0, v);
      }
      long sum = within(pool, () -> {
        long total = 0;
        try (ArrowReader reader = ArrayReader.of(array, allocator, 100)) {
          while (reader.loadNextBatch()) {
            IntVector column = (IntVector) reader.getVectorSchemaRoot().getVector(0);
            for (int i = 0; i < column.getValueCount(); i++) {
              total += column.get(i);
            }
          }
        }
        return total;
      });
      assertEquals(999L * 1000 / 2, sum);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void closeNeverWaitsForBatchesQueuedBehindABusyPool() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService consumer = Executors.newSingleThreadExecutor();
    try {
      pool.execute(() -> {
        try {
          release.await(); // the pool's only thread is busy until the test ends
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      AtomicInteger decoded = new AtomicInteger();
      AtomicInteger closed = new AtomicInteger();
      within(consumer, () -> {
        ReadAhead<Rows> ahead = new ReadAhead<>(0, 100, 10, 3, (s, e) -> {
          decoded.incrementAndGet();
          return new Rows(s, e, closed);
        }, pool);
        try (Rows first = ahead.next()) {
          assertEquals(0, first.start(), "the consumer decodes the queued batch itself");
        }
        ahead.close(); // three batches queued, none started: nothing to wait for
        return null;
      });
      assertEquals(1, decoded.get(), "batches never started are never decoded");
      release.countDown();
      pool.shutdown();
      assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS));
      assertEquals(1, decoded.get(), "queued tasks that run after close decode nothing");
      assertEquals(1, closed.get());
    } finally {
      release.countDown();
      pool.shutdownNow();
      consumer.shutdownNow();
    }
  }

  @Test
  void aFailureRepeatsAndBatchesDecodedAheadAreClosed() {
    AtomicInteger closed = new AtomicInteger();
    RuntimeException boom = new IllegalStateException("row 20 is bad");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      ReadAhead<Rows> ahead = new ReadAhead<>(0, 60, 10, 3, (s, e) -> {
        if (s == 20) {
          throw boom;
        }
        return new Rows(s, e, closed);
      }, pool);
      ahead.next().close();
      ahead.next().close();
      assertSame(boom, assertThrows(IllegalStateException.class, ahead::next));
      assertSame(boom, assertThrows(IllegalStateException.class, ahead::next), "the same failure again");
      ahead.close();
      assertThrows(IllegalStateException.class, ahead::next, "closed");
      assertTrue(closed.get() >= 2, "taken batches closed by their taker, the rest by close");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aRejectingExecutorLeavesTheWorkToTheConsumer() {
    AtomicInteger closed = new AtomicInteger();
    ExecutorService dead = Executors.newSingleThreadExecutor();
    dead.shutdown();
    try (ReadAhead<Rows> ahead = new ReadAhead<>(0, 25, 10, 2, (s, e) -> new Rows(s, e, closed), dead)) {
      assertEquals(0, ahead.next().start());
      assertEquals(10, ahead.next().start());
      assertEquals(20, ahead.next().start());
      assertNull(ahead.next());
    }
  }
}
