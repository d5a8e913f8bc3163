package dev.zarrow.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Parallel work that is safe to start from inside a task of the same executor (a shard decoded on the
 * pool that also decodes its inner chunks). The caller works through the items itself while helper
 * tasks on the executor join in; an item is taken only by a thread that is running, so the caller never
 * waits for a task still queued behind it. That is what makes nesting deadlock-free on any executor,
 * bounded or not, where submitting every item and then joining could starve a full pool.
 */
public final class WorkSharing {
  private static final int HELPERS = Math.max(0, Runtime.getRuntime().availableProcessors() - 1);

  private WorkSharing() {}

  /**
   * {@code task} applied to every item, results in item order. After a failure no further items are
   * started; every result made is closed (when {@link AutoCloseable}) and the first failure rethrown.
   */
  public static <T, R> List<R> map(List<T> items, Function<T, R> task, Executor executor) {
    int n = items.size();
    Object[] results = new Object[n];
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch finished = new CountDownLatch(n);
    Runnable worker = () -> {
      for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
        try {
          if (failure.get() == null) {
            results[i] = task.apply(items.get(i));
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        } finally {
          finished.countDown();
        }
      }
    };
    int helpers = Math.min(n - 1, HELPERS);
    for (int h = 0; h < helpers; h++) {
      try {
        executor.execute(worker);
      } catch (RejectedExecutionException e) {
        break; // the caller does the rest
      }
    }
    worker.run();
    awaitUninterruptibly(finished);
    Throwable t = failure.get();
    if (t != null) {
      Arrays.stream(results).forEach(WorkSharing::closeQuietly);
      if (t instanceof RuntimeException re) {
        throw re;
      }
      if (t instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(t);
    }
    List<R> out = new ArrayList<>(n);
    for (Object r : results) {
      @SuppressWarnings("unchecked")
      R result = (R) r;
      out.add(result);
    }
    return out;
  }

  /** {@code task} run for every item, as {@link #map} does. */
  public static <T> void forEach(List<T> items, java.util.function.Consumer<T> task, Executor executor) {
    map(items, item -> {
      task.accept(item);
      return null;
    }, executor);
  }

  /** {@code task} run for every index {@code 0 <= i < count}, as {@link #forEach} runs items. */
  public static void forEachIndex(int count, java.util.function.IntConsumer task, Executor executor) {
    forEach(java.util.stream.IntStream.range(0, count).boxed().toList(), task::accept, executor);
  }

  /** Every item taken is being worked on by a running thread, so this wait always ends. */
  private static void awaitUninterruptibly(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(Object o) {
    if (o instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception ignored) {
        // already failing; the first failure is what the caller needs
      }
    }
  }
}
